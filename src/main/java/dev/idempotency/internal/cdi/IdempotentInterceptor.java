package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.internal.core.WorkTransactions;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import dev.idempotency.internal.jaxrs.LateResume;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.AsyncResponse;
import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Guards {@link Idempotent} methods of CDI beans and EJB session beans.
 *
 * <p>Priority {@code PLATFORM_BEFORE + 100} ({@link GlobalSettings#DEFAULT_INTERCEPTOR_PRIORITY}),
 * changeable with {@code idempotency.interceptor.priority}: it runs before {@code @Transactional} (200),
 * so a replay returns before a transaction begins, and around Fault Tolerance, so a series of retries
 * is one guarded execution. Whatever the priority, an owned call is settled by the transaction its
 * method body ran in, which {@link IdempotentWorkInterceptor} reports from next to the body.
 */
@Idempotent
@Interceptor
@Priority(GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY)
// Serializable: GlassFish's EJB container replaces a non-Serializable interceptor class of an EJB by
// a generated Serializable subclass, which CDI cannot create (no no-argument constructor: WELD-001530).
public class IdempotentInterceptor implements Serializable {

    private final IdempotencyRuntime runtime;
    private final FilteredRequest request;

    /**
     * @param runtime the application's runtime
     * @param request what the Idempotency-Key filter left for the current request's resource method
     */
    @Inject
    public IdempotentInterceptor(IdempotencyRuntime runtime, FilteredRequest request) {
        this.runtime = runtime;
        this.request = request;
    }

    /** Runs the call once per key. */
    @AroundInvoke
    public Object guard(InvocationContext ic) throws Exception {
        GuardedMethod plan = runtime.plan(ic.getMethod(), targetClass(ic)).orElse(null);
        if (plan == null) {
            return resource(ic);
        }
        return plan.invoke(ic.getParameters(), work -> {
            if (work != null) {
                ic.getContextData().put(IdempotentWorkInterceptor.WORK, work);
            }
            return ic.proceed();
        });
    }

    /**
     * A JAX-RS resource method, which the JAX-RS filter guards: refused when the filter did not see its
     * request, as it would otherwise run unguarded. When its request owns a claim, the
     * method's work may outlive the response, and its outcome then settles the claim: a suspended
     * method gets an {@code AsyncResponse} that also sees a resume after its timeout, and a timeout
     * between here and the body (Fault Tolerance's {@code @Timeout}) waits for the body's own outcome.
     */
    private Object resource(InvocationContext ic) throws Exception {
        Object pending = filtered();
        if (pending == FilteredRequest.NOT_FILTERED) {
            throw notFiltered(ic.getMethod());
        }
        if (!LateResume.owns(pending)) {
            return ic.proceed();
        }
        watchSuspended(ic, pending);
        WorkTransactions body = new WorkTransactions();
        ic.getContextData().put(IdempotentWorkInterceptor.BODY, body);
        Object result;
        try {
            result = ic.proceed();
        } catch (Exception e) {
            LateResume.timedOut(pending, e, body, ic.getMethod());
            throw e;
        }
        if (!(result instanceof CompletionStage<?> stage)) {
            return result;
        }
        // The caller's stage completes after a timeout was seen, so that no response settles the claim first.
        CompletableFuture<Object> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                out.complete(value);
            } else {
                LateResume.timedOut(pending, failure, body, ic.getMethod());
                out.completeExceptionally(failure);
            }
        });
        return out;
    }

    private static void watchSuspended(InvocationContext ic, Object pending) {
        Object[] parameters = ic.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] instanceof AsyncResponse response) {
                AsyncResponse watched = LateResume.watch(response, pending, ic.getMethod());
                if (watched != response) {
                    Object[] replaced = parameters.clone();
                    replaced[i] = watched;
                    ic.setParameters(replaced);
                }
                return;
            }
        }
    }

    private Object filtered() {
        try {
            return request.take();
        } catch (ContextNotActiveException e) {
            return FilteredRequest.NOT_FILTERED; // no request here: no filter saw it
        }
    }

    /** The refusal of a resource method that would run unguarded. */
    static IdempotencyConfigurationException notFiltered(java.lang.reflect.Method method) {
        return new IdempotencyConfigurationException("@Idempotent resource method " + PolicyResolver.describe(method)
                + " was called without the Idempotency-Key filter having seen its request, so it is refused instead"
                + " of running unguarded. Either this Jakarta REST runtime did not register the library's providers"
                + " (they are listed in the jar's META-INF/services; a runtime that does not read them needs them"
                + " registered: see docs/servers.md for your runtime), or the method was called directly from Java"
                + " code, where the HTTP guard cannot apply: move the work to an @Idempotent method of a CDI bean"
                + " and call that.");
    }

    private static Class<?> targetClass(InvocationContext ic) {
        Object target = ic.getTarget();
        return target == null ? ic.getMethod().getDeclaringClass() : target.getClass();
    }
}
