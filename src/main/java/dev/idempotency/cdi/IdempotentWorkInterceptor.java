package dev.idempotency.cdi;

import dev.idempotency.Idempotent;
import dev.idempotency.core.GlobalSettings;
import dev.idempotency.core.WorkTransactions;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;

/**
 * The inner half of the guard: next to the method body, it tells the call's {@link WorkTransactions}
 * which transaction the body runs in, so that {@link IdempotentInterceptor} settles the call by that
 * transaction's real outcome, not by whatever transaction surrounds the guard.
 *
 * <p>Why two interceptors: the guard runs at priority 100 by default, before {@code @Transactional}
 * (200) begins or suspends a transaction, so it cannot see a {@code REQUIRES_NEW} or {@code
 * NOT_SUPPORTED} method's transaction. This one runs at {@code LIBRARY_AFTER + 900} ({@link
 * GlobalSettings#DEFAULT_WORK_INTERCEPTOR_PRIORITY}), after {@code @Transactional} and the
 * application's interceptors; for EJBs the container's transaction begins before every interceptor,
 * so both halves see it. The guard hands the call's {@code WorkTransactions} down through {@link
 * InvocationContext#getContextData()}, a value of this one invocation; a call the guard does not own
 * (a replay, an unguarded call, one an outer entry point guards) carries none, and this interceptor
 * only proceeds.
 */
@Idempotent
@Interceptor
@Priority(GlobalSettings.DEFAULT_WORK_INTERCEPTOR_PRIORITY)
// Serializable for GlassFish's EJB container, like IdempotentInterceptor (WELD-001530 otherwise: every
// @Idempotent EJB failed to be created there).
public class IdempotentWorkInterceptor implements Serializable {

    /** The context-data entry holding the call's {@link WorkTransactions}. */
    static final String WORK = WorkTransactions.class.getName();

    private final IdempotencyRuntime runtime;

    /** @param runtime the application's runtime */
    @Inject
    public IdempotentWorkInterceptor(IdempotencyRuntime runtime) {
        this.runtime = runtime;
    }

    /** Reports the body's transaction, then runs the body. */
    @AroundInvoke
    public Object watch(InvocationContext ic) throws Exception {
        if (ic.getContextData().get(WORK) instanceof WorkTransactions work) {
            runtime.watch(work);
        }
        return ic.proceed();
    }
}
