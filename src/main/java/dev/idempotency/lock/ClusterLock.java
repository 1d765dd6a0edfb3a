package dev.idempotency.lock;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated scheduled job on one node per window: on EJB timer methods ({@code @Schedule},
 * {@code @Timeout}, intercepted around the timeout) and on methods of CDI beans and session beans.
 * Every node that shares the configured store shares the lock.
 *
 * <p>When the method is called, the first applicable rule decides:
 *
 * <ol>
 *   <li>If another node (or thread) holds the lock named {@link #name()}, the call is skipped: the
 *       method does not run, the call returns {@code null} (the method must return {@code void}), and
 *       a DEBUG line says so.
 *   <li>Otherwise this call takes the lock for at most {@link #atMostFor()} and runs the method. When
 *       the method returns or throws, the lock is kept until {@link #atLeastFor()} has passed since
 *       it was taken, then freed; an exception is rethrown as it is.
 * </ol>
 *
 * <p>On a class, every business method shares the one lock. The durations are checked at deployment.
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ClusterLock {

    /** The lock's name: the same on every node that runs the job; not blank. Required. */
    @Nonbinding
    String name();

    /**
     * How long the lock is held at most, as an ISO-8601 duration, even if its holder dies: choose it
     * longer than the job's longest run. Positive. Default: {@code PT10M}.
     */
    @Nonbinding
    String atMostFor() default "PT10M";

    /**
     * How long the lock is held at least, as an ISO-8601 duration, even if the job ends sooner: choose
     * it longer than the clock and schedule differences between nodes, so a quick job does not run
     * twice in one window. From {@code PT0S} up to {@link #atMostFor()}. Default: {@code PT0S}.
     */
    @Nonbinding
    String atLeastFor() default "PT0S";
}
