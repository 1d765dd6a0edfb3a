package dev.idempotency.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKeyMissingException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * The per-method plan of a guarded method: its policy, how to read its key, how to store its
 * outcome. Built once per method (at deployment, so that errors show then) and reused for every call.
 */
public final class GuardedMethod {

    private final OperationPolicy policy;
    private final KeyReader keys;
    private final MethodOutcomes outcomes;
    private final IdempotencyEngine engine;
    private final Settlement settlement;

    private GuardedMethod(
            OperationPolicy policy,
            KeyReader keys,
            MethodOutcomes outcomes,
            IdempotencyEngine engine,
            Settlement settlement) {
        this.policy = policy;
        this.keys = keys;
        this.outcomes = outcomes;
        this.engine = engine;
        this.settlement = settlement;
    }

    /**
     * Plans a method.
     *
     * @throws IdempotencyConfigurationException the method cannot be guarded as declared
     */
    public static GuardedMethod plan(Method method, OperationPolicy policy, IdempotencyEngine engine) {
        return plan(method, policy, engine, Settlement.IMMEDIATE);
    }

    /**
     * Plans a method whose outcome is settled by {@code settlement} (for example when the
     * surrounding transaction commits).
     *
     * @throws IdempotencyConfigurationException the method cannot be guarded as declared
     */
    public static GuardedMethod plan(
            Method method, OperationPolicy policy, IdempotencyEngine engine, Settlement settlement) {
        Class<?> rt = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(rt) || Future.class.isAssignableFrom(rt)) {
            throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                    + ": asynchronous return types (" + rt.getSimpleName()
                    + ") are not supported, because the outcome is not known when the method returns; guard"
                    + " the synchronous method that does the work instead.");
        }
        // A store that writes in the caller's transaction already commits or rolls back with it:
        // deferring the completion to after the commit would write it outside that transaction.
        Settlement settles = engine.store().joinsCallerTransaction(policy.name()) ? Settlement.IMMEDIATE : settlement;
        return new GuardedMethod(policy, KeyReader.of(method), new MethodOutcomes(method), engine, settles);
    }

    /** The merged policy. */
    public OperationPolicy policy() {
        return policy;
    }

    /**
     * Runs the call under the policy: claim, run and store, or replay, or fail.
     *
     * @param args the call's arguments (not modified)
     * @param next runs the method
     */
    public Object invoke(Object[] args, Invocation next) throws Exception {
        String key = keys.read(args);
        if (key == null && keys.hasKeys()) {
            if (policy.required()) {
                throw new IdempotencyKeyMissingException(
                        policy.name(),
                        keys.describeMissing(args) + "; pass a non-blank value, or set required = false to run"
                                + " such calls unguarded.");
            }
            return next.proceed();
        }
        String fingerprint = fingerprint(args);
        RecordKey recordKey = RecordKey.of(policy.name(), "", key == null ? fingerprint : key);
        Claim claim = engine.begin(policy, recordKey, fingerprint);
        if (claim instanceof Claim.Replay replay) {
            return outcomes.replay(replay.outcome(), recordKey);
        }
        Claim.Owned owned = (Claim.Owned) claim;
        Object result;
        try {
            result = next.proceed();
        } catch (Exception e) {
            settleFailure(owned, e);
            throw e;
        } catch (Error e) {
            settleFailure(owned, e);
            throw e;
        }
        byte[] stored = outcomes.value(result);
        settlement.afterWork(() -> engine.complete(owned, stored), () -> engine.release(owned));
        return result;
    }

    /**
     * SHA-256 of the canonical JSON of all arguments.
     *
     * @throws IdempotencyConfigurationException an argument cannot be serialized; the method does not run
     */
    private String fingerprint(Object[] args) {
        try {
            return Hashing.sha256Hex(CanonicalJson.of(Arrays.asList(args)));
        } catch (RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "The arguments of '" + policy.name() + "' cannot be serialized with JSON-B, which the"
                            + " fingerprint needs, so the call did not run; make every parameter type JSON-B"
                            + " serializable (public getters or fields), or move non-data parameters out of the"
                            + " guarded method. Cause: " + e,
                    e);
        }
    }

    private void settleFailure(Claim.Owned owned, Throwable t) {
        if (policy.exceptions().keeps(t)) {
            byte[] stored = outcomes.exception(t);
            settlement.afterWork(() -> engine.complete(owned, stored), () -> engine.release(owned));
        } else {
            engine.release(owned);
        }
    }
}
