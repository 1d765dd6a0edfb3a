package dev.idempotency.it.app;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.TimeUnit;

/**
 * At priority 500, between the guard (100) and the body: it takes {@link #MILLIS} after the body
 * returned, as a {@code @Transactional} commit does, so that the guard stores the outcome that much
 * later than the body ended. A caller woken when the body ended would call again before the store.
 */
@SlowReturn
@Interceptor
@Priority(500)
public class SlowReturnInterceptor {

    /** The time between the body's end and the guard's store. */
    public static final long MILLIS = 20;

    @AroundInvoke
    Object slow(InvocationContext ic) throws Exception {
        Object result = ic.proceed();
        TimeUnit.MILLISECONDS.sleep(MILLIS);
        return result;
    }
}
