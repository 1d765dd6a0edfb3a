package dev.idempotency.internal.cdi;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds {@link TimesOutInterceptor}: a stand-in for MicroProfile Fault Tolerance's {@code @Timeout},
 * at its priority, for tests that run without a Fault Tolerance implementation.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@interface TimesOut {

    /**
     * True: the body runs on the caller's thread and the timeout is thrown when it returns late, as
     * {@code @Timeout} alone does. False: the body runs on another thread and the returned stage fails
     * at the timeout while the body runs on, as {@code @Asynchronous @Timeout} does.
     */
    @Nonbinding
    boolean waits();
}
