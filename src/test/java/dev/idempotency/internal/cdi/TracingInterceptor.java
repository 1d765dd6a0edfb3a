package dev.idempotency.internal.cdi;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.atomic.AtomicInteger;

/** At priority 1000: inside the idempotency interceptor by default, outside it when that is moved above. */
@Traced
@Interceptor
@Priority(1000)
public class TracingInterceptor {

    static final AtomicInteger CALLS = new AtomicInteger();

    @AroundInvoke
    Object count(InvocationContext ic) throws Exception {
        CALLS.incrementAndGet();
        return ic.proceed();
    }
}
