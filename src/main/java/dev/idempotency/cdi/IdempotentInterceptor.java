package dev.idempotency.cdi;

import dev.idempotency.Idempotent;
import dev.idempotency.core.GlobalSettings;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Guards {@link Idempotent} methods of CDI beans and EJB session beans.
 *
 * <p>Priority {@code PLATFORM_BEFORE + 100} ({@link GlobalSettings#DEFAULT_INTERCEPTOR_PRIORITY}),
 * changeable with {@code idempotency.interceptor.priority}: it runs before {@code @Transactional} (200),
 * so the outcome is stored after the business transaction committed, and around Fault Tolerance, so
 * a series of retries is one guarded execution.
 */
@Idempotent
@Interceptor
@Priority(GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY)
public class IdempotentInterceptor {

    private final IdempotencyRuntime runtime;

    /** @param runtime the application's runtime */
    @Inject
    public IdempotentInterceptor(IdempotencyRuntime runtime) {
        this.runtime = runtime;
    }

    /** Runs the call once per key. */
    @AroundInvoke
    public Object guard(InvocationContext ic) throws Exception {
        if (OuterGuard.claimedByOuter(ic.getMethod())) {
            return ic.proceed();
        }
        return runtime.plan(ic.getMethod(), targetClass(ic)).invoke(ic.getParameters(), ic::proceed);
    }

    private static Class<?> targetClass(InvocationContext ic) {
        Object target = ic.getTarget();
        return target == null ? ic.getMethod().getDeclaringClass() : target.getClass();
    }
}
