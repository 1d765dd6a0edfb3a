package dev.idempotency.internal.cdi;

import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.WorkTransactions;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The inner half of the guard: next to the method body, it tells the call's {@link WorkTransactions}
 * which transaction the body runs in and how the body ended, so that {@link IdempotentInterceptor}
 * settles the call by that transaction's real outcome, not by whatever transaction surrounds the
 * guard, and by the body's own outcome when a Fault Tolerance {@code @Timeout} between the two ended
 * the caller's wait first.
 *
 * <p>Why two interceptors: the guard runs at priority 100 by default, before {@code @Transactional}
 * (200) begins or suspends a transaction and outside Fault Tolerance ({@code PLATFORM_AFTER + 10}), so
 * it sees neither a {@code REQUIRES_NEW} method's transaction nor a body that outlives its timeout.
 * This one runs at {@code PLATFORM_AFTER + 900} ({@link GlobalSettings#DEFAULT_WORK_INTERCEPTOR_PRIORITY}),
 * after all of them; for EJBs the container's transaction begins before every interceptor, so both
 * halves see it. The guard hands the call's {@code WorkTransactions} down through {@link
 * InvocationContext#getContextData()}, a value of this one invocation (Fault Tolerance carries it to
 * the thread of an {@code @Asynchronous} body); a call the guard does not own (a replay, an unguarded
 * call, one an outer entry point guards) carries none, and this interceptor only proceeds.
 */
@Idempotent
@Interceptor
@Priority(GlobalSettings.DEFAULT_WORK_INTERCEPTOR_PRIORITY)
// Serializable for GlassFish's EJB container, like IdempotentInterceptor (WELD-001530 otherwise: every
// @Idempotent EJB failed to be created there).
public class IdempotentWorkInterceptor implements Serializable {

    /** The context-data entry holding the call's {@link WorkTransactions}. */
    static final String WORK = WorkTransactions.class.getName();

    /**
     * The context-data entry of a resource method's call that the JAX-RS filter guards: only how its
     * body ends is reported (its request's transaction is the filter's business).
     */
    static final String BODY = WORK + ".body";

    private final IdempotencyRuntime runtime;

    /** @param runtime the application's runtime */
    @Inject
    public IdempotentWorkInterceptor(IdempotencyRuntime runtime) {
        this.runtime = runtime;
    }

    /** Reports the body's transaction, runs the body, and reports how it ended. */
    @AroundInvoke
    public Object watch(InvocationContext ic) throws Exception {
        WorkTransactions work;
        if (ic.getContextData().get(WORK) instanceof WorkTransactions guarded) {
            runtime.watch(guarded);
            work = guarded;
        } else if (ic.getContextData().get(BODY) instanceof WorkTransactions resource) {
            work = resource;
        } else {
            return ic.proceed();
        }
        work.bodyStarted();
        Object result;
        try {
            result = ic.proceed();
        } catch (Exception | Error e) {
            work.bodyEnded(null, e);
            throw e;
        }
        Class<?> type = ic.getMethod().getReturnType();
        if ((type == CompletionStage.class || type == CompletableFuture.class)
                && result instanceof CompletionStage<?> stage) {
            stage.whenComplete(work::bodyEnded);
        } else {
            work.bodyEnded(result, null);
        }
        return result;
    }
}
