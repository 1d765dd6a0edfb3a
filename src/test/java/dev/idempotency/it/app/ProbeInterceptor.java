package dev.idempotency.it.app;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * At priority 500, between the guard's default (100) and 1000: it sees a replayed call only when the
 * guard runs inside it, so it tells the test which priority the deployment really applied.
 */
@Probed
@Interceptor
@Priority(500)
public class ProbeInterceptor {

    @Inject
    ExecutionCounter counter;

    @AroundInvoke
    Object count(InvocationContext ic) throws Exception {
        counter.ran("probe:" + ic.getParameters()[0]);
        return ic.proceed();
    }
}
