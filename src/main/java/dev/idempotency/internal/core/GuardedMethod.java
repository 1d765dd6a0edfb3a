package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.CallerTransactionRollingBackException;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * The per-method plan of a guarded method: its policy, how to read its key and fingerprint, how to
 * store its outcome. Built once per method at deployment, so that a method that cannot be guarded fails
 * then, and reused for every call.
 *
 * <p>An owned call is settled by the transactions its own work ran in ({@link WorkTransactions}), and,
 * when a timeout outside the body ended the caller's wait, by the body's own outcome once it ends. A
 * {@code CompletionStage} method is settled when its stage completes. The rules, in the order they
 * apply: docs/configuration.md, sections "How a call is decided", "Asynchronous methods", "Timeouts"
 * and "Exceptions".
 */
public final class GuardedMethod {

    private static final System.Logger LOG = System.getLogger(GuardedMethod.class.getName());

    /** MicroProfile Fault Tolerance's timeout, named so that core does not depend on its API. */
    private static final String FT_TIMEOUT = "org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException";

    private final OperationPolicy policy;
    private final KeyReader keys;
    private final OutcomeCodec outcomes;
    private final IdempotencyEngine engine;
    private final Settlement fallback;
    private final boolean joinsCallerTransaction;
    private final boolean stage;
    /** The container's future the body completes, when it is an asynchronous method that has one. */
    private final ResultFuture results;

    private final OperationEvents events;
    /** The record keys of this operation (the interceptor's calls are not scoped). */
    private final RecordKey.Namespace keySpace;
    /** How each argument is written into the fingerprint's canonical JSON. */
    private final CanonicalJson.ArgumentWriter[] writers;

    private GuardedMethod(
            OperationPolicy policy,
            KeyReader keys,
            OutcomeCodec outcomes,
            IdempotencyEngine engine,
            Settlement fallback,
            boolean joinsCallerTransaction,
            boolean stage,
            ResultFuture results,
            CanonicalJson.ArgumentWriter[] writers) {
        this.policy = policy;
        this.keys = keys;
        this.outcomes = outcomes;
        this.engine = engine;
        this.fallback = fallback;
        this.joinsCallerTransaction = joinsCallerTransaction;
        this.stage = stage;
        this.results = results;
        this.events = engine.events(policy.name());
        this.keySpace = engine.keys(policy.name(), "");
        this.writers = writers;
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
     * Plans a method.
     *
     * @param fallback how to settle a call whose body nobody watched (its {@link WorkTransactions}
     *     was never reached): for example with the transaction around the guard
     * @throws IdempotencyConfigurationException the method cannot be guarded as declared
     */
    public static GuardedMethod plan(
            Method method, OperationPolicy policy, IdempotencyEngine engine, Settlement fallback) {
        return plan(method, policy, engine, fallback, ResultFuture.NONE);
    }

    /**
     * Plans a method.
     *
     * @param fallback how to settle a call whose body nobody watched
     * @param results the container's future an asynchronous body completes, if the method has one
     * @throws IdempotencyConfigurationException the method cannot be guarded as declared
     */
    public static GuardedMethod plan(
            Method method,
            OperationPolicy policy,
            IdempotencyEngine engine,
            Settlement fallback,
            ResultFuture results) {
        boolean stage = isStage(method);
        ValueTypes.requireWholeValues(method, stage ? stageValueType(method) : method.getGenericReturnType());
        OutcomeCodec outcomes = stage ? new OutcomeCodec(method, stageValueType(method)) : new OutcomeCodec(method);
        return new GuardedMethod(
                policy,
                KeyReader.of(method),
                outcomes,
                engine,
                fallback,
                policy.joined(),
                stage,
                stage && results.completedBy(method) ? results : ResultFuture.NONE,
                CanonicalJson.writers(method));
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
        Admission claim;
        try {
            claim = begin(args);
        } catch (IdempotencyException e) {
            if (stage) {
                return CompletableFuture.failedFuture(e);
            }
            throw e;
        }
        if (claim == null) {
            return next.proceed(null);
        }
        if (claim instanceof Admission.Replay replay) {
            return replay(replay);
        }
        Admission.Owned owned = (Admission.Owned) claim;
        WorkTransactions work = new WorkTransactions();
        CompletableFuture<Object> own = results == ResultFuture.NONE ? null : new CompletableFuture<>();
        CompletableFuture<Object> callers = own == null ? null : results.swap(own);
        if (callers != null) {
            // Asynchronous.Result.getFuture() lets the body see that its caller cancelled.
            callers.whenComplete((value, failure) -> {
                if (callers.isCancelled()) {
                    own.cancel(false);
                }
            });
        }
        Object result;
        try {
            result = next.proceed(work);
        } catch (Exception e) {
            settleFailure(owned, work, e);
            throw e;
        } catch (Error e) {
            settleFailure(owned, work, e);
            throw e;
        } finally {
            if (callers != null) {
                results.restore(callers);
            }
        }
        if (stage && result != null) {
            CompletableFuture<Object> out = settleWhenComplete(owned, work, (CompletionStage<?>) result);
            // Handed over only when the body completed the guard's future (a body that returns another one
            // has it copied to the caller's by its container, from the guard's stage; a call that merely
            // passed through, the guard outside the container's interceptor, touched neither).
            return callers != null && (result == own || own.isDone()) ? handOver(out, callers) : out;
        }
        settleValue(owned, work, outcomes.value(result));
        return result;
    }

    /** Claims the key, or decides a replay; {@code null} when the call runs unguarded. */
    private Admission begin(Object[] args) {
        String key = keys.read(args);
        if (key == null && keys.hasKeys()) {
            if (policy.required()) {
                events.keyMissing();
                throw new IdempotencyKeyMissingException(
                        policy.name(),
                        keys.describeMissing(args) + "; pass a non-blank value, or set required = false to run"
                                + " such calls unguarded.");
            }
            return null;
        }
        String fingerprint = fingerprint(args);
        RecordKey recordKey = keySpace.key(key == null ? fingerprint : key);
        return engine.begin(policy, recordKey, fingerprint, events);
    }

    private Object replay(Admission.Replay replay) throws Exception {
        if (!stage) {
            return outcomes.replay(replay.outcome(), replay.key());
        }
        try {
            return CompletableFuture.completedFuture(outcomes.replay(replay.outcome(), replay.key()));
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The stage the caller gets: it completes as the method's stage did (the same value, or the same
     * exception object), but only after the outcome was settled, so a caller who saw it complete and
     * retries at once gets the replay.
     */
    private CompletableFuture<Object> settleWhenComplete(
            Admission.Owned owned, WorkTransactions work, CompletionStage<?> result) {
        CompletableFuture<Object> out = new CompletableFuture<>();
        result.whenComplete((value, failure) -> {
            try {
                if (failure == null) {
                    settleValue(owned, work, outcomes.value(value));
                } else {
                    settleFailure(owned, work, unwrap(failure));
                }
            } finally {
                if (failure == null) {
                    out.complete(value);
                } else {
                    out.completeExceptionally(failure);
                }
            }
        });
        return out;
    }

    /**
     * Completes the caller's container future as the guard's stage did, so after the outcome was stored
     * (the body completed the guard's own future in its place).
     */
    private static CompletableFuture<Object> handOver(
            CompletableFuture<Object> out, CompletableFuture<Object> callers) {
        out.whenComplete((value, failure) -> {
            if (failure == null) {
                callers.complete(value);
            } else {
                callers.completeExceptionally(failure);
            }
        });
        return callers;
    }

    /**
     * Whether the failure is a timeout: {@code java.util.concurrent.TimeoutException} or MicroProfile
     * Fault Tolerance's, recognised by name (no dependency), also inside CompletionException or
     * ExecutionException.
     */
    public static boolean isTimeout(Throwable t) {
        for (Class<?> c = unwrap(t).getClass(); c != null; c = c.getSuperclass()) {
            if (c == TimeoutException.class || c.getName().equals(FT_TIMEOUT)) {
                return true;
            }
        }
        return false;
    }

    /** The cause inside {@code CompletionException} and {@code ExecutionException} wrappers. */
    public static Throwable unwrap(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** How a call settles: in a joined store's transaction now, else as its watched work says. */
    private Settlement settlement(WorkTransactions work) {
        if (joinsCallerTransaction) {
            // The store writes in the caller's transaction, which already commits or rolls back with it.
            return Settlement.IMMEDIATE;
        }
        return work.reached() ? work : fallback;
    }

    private void settleValue(Admission.Owned owned, WorkTransactions work, byte[] stored) {
        settlement(work).afterWork(() -> store(owned, stored), () -> engine.release(owned, ReleaseCause.ROLLBACK));
    }

    /**
     * Stores the outcome. In a joined store's transaction, an outcome that could not be stored fails the
     * call, so that its transaction rolls back: committing the work without its record would let a retry
     * run it again. A transaction the work itself marked for rollback stores nothing and fails nothing:
     * the claim goes with the rollback, and the caller gets the call's own outcome (its exception, or
     * its container's rollback). Otherwise the work is already durable, and the engine logs the failure.
     *
     * @throws IdempotencyStoreUnavailableException joined, and the record was not written
     */
    private void store(Admission.Owned owned, byte[] stored) {
        if (joinsCallerTransaction) {
            boolean written;
            try {
                written = engine.completeInTransaction(owned, stored);
            } catch (CallerTransactionRollingBackException rollingBack) {
                return;
            }
            if (!written) {
                throw new IdempotencyStoreUnavailableException(
                        policy.name(),
                        owned.key().hash(),
                        "The idempotency record could not be written in the call's transaction, so the call"
                                + " fails and its transaction rolls back: nothing was done. Retry it.",
                        null);
            }
        } else {
            engine.complete(owned, stored);
        }
    }

    private void settleFailure(Admission.Owned owned, WorkTransactions work, Throwable t) {
        if (isUnnamedTimeout(t)) {
            if (!joinsCallerTransaction
                    && work.afterBody((value, failure) -> settleBody(owned, work, value, failure))) {
                // The timeout came from outside the body (Fault Tolerance's @Timeout): the claim stays, as
                // for a running call, until the body ends; then its own outcome is settled.
                LOG.log(Level.DEBUG, "{0}: timed out; settled by its body's own outcome when that ends", owned.key());
                return;
            }
            hold(owned, t);
            return;
        }
        Settlement settles;
        if (policy.exceptions().keeps(t)) {
            settles = settlement(work);
        } else if (work.ranInTransaction()) {
            settles = joinsCallerTransaction ? Settlement.IMMEDIATE : work.transactionsOnly();
        } else {
            engine.release(owned, ReleaseCause.EXCEPTION);
            return;
        }
        byte[] stored = outcomes.exception(t);
        settles.afterWork(() -> store(owned, stored), () -> engine.release(owned, ReleaseCause.ROLLBACK));
    }

    /** Settles by the body's own outcome, which ended after the guard saw a timeout. */
    private void settleBody(Admission.Owned owned, WorkTransactions work, Object value, Throwable failure) {
        if (failure == null) {
            settleValue(owned, work, outcomes.value(value));
        } else if (isUnnamedTimeout(failure)) {
            hold(owned, failure);
        } else {
            settleFailure(owned, work, unwrap(failure));
        }
    }

    /** A timeout that no keepOn or releaseOn type names: the outcome may be unknown. */
    private boolean isUnnamedTimeout(Throwable t) {
        return isTimeout(t)
                && !policy.exceptions().names(t)
                && !policy.exceptions().names(unwrap(t));
    }

    /**
     * The body timed out while work it started may still run, out of the guard's sight (orTimeout, a
     * bounded get): its outcome is unknown, so neither store nor release.
     */
    private void hold(Admission.Owned owned, Throwable t) {
        LOG.log(
                Level.DEBUG,
                "{0}: timed out ({1}); its work may still run, so the key stays claimed for the retention",
                owned.key(),
                unwrap(t).getClass().getName());
        engine.hold(owned);
    }

    /**
     * SHA-256 of the canonical JSON of all arguments.
     *
     * @throws IdempotencyConfigurationException an argument cannot be serialized; the method does not run
     */
    private String fingerprint(Object[] args) {
        try {
            return Hashing.sha256Hex(CanonicalJson.ofArguments(args, writers));
        } catch (IdempotencyConfigurationException e) {
            // It names the type and the fix already; the operation tells the user where.
            throw new IdempotencyConfigurationException("Operation '" + policy.name() + "': " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "The arguments of '" + policy.name() + "' cannot be written for the fingerprint, so the call"
                            + " did not run; pass data (records, value classes, collections) and move non-data"
                            + " parameters out of the guarded method. Cause: " + e,
                    e);
        }
    }

    /**
     * Whether the method returns a stage the guard waits for; refuses every other asynchronous return
     * type, whose outcome the guard cannot observe.
     */
    private static boolean isStage(Method method) {
        Class<?> rt = method.getReturnType();
        if (rt == CompletionStage.class || rt == CompletableFuture.class) {
            return true;
        }
        String refusal = null;
        if (CompletionStage.class.isAssignableFrom(rt)) {
            refusal = "its return type " + rt.getName() + " is a CompletionStage the guard cannot hand back on a"
                    + " replay; declare CompletionStage<T> or CompletableFuture<T>";
        } else if (Future.class.isAssignableFrom(rt)) {
            refusal = "its return type " + rt.getName() + " is a Future, whose outcome cannot be observed without"
                    + " blocking; return CompletionStage<T>, or guard the synchronous method that does the work";
        } else if (isReactive(rt)) {
            refusal = "its return type " + rt.getName() + " is a reactive stream, whose outcome is not one value;"
                    + " return CompletionStage<T>, or guard the synchronous method that does the work";
        }
        if (refusal != null) {
            throw new IdempotencyConfigurationException(
                    "@Idempotent on " + PolicyResolver.describe(method) + " cannot be supported: " + refusal + ".");
        }
        return false;
    }

    /** Flow.Publisher, Reactive Streams, Mutiny, Reactor and RxJava types, recognised without depending on them. */
    private static boolean isReactive(Class<?> type) {
        Deque<Class<?>> todo = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            if (!seen.add(c)) {
                continue;
            }
            String name = c.getName();
            if (c == Flow.Publisher.class
                    || name.equals("org.reactivestreams.Publisher")
                    || name.startsWith("io.smallrye.mutiny.")
                    || name.startsWith("reactor.core.publisher.")
                    || name.startsWith("io.reactivex.")) {
                return true;
            }
            if (c.getSuperclass() != null) {
                todo.add(c.getSuperclass());
            }
            todo.addAll(Arrays.asList(c.getInterfaces()));
        }
        return false;
    }

    /** {@code T} of {@code CompletionStage<T>}; {@code Object} when it is not declared. */
    private static Type stageValueType(Method method) {
        Type t = method.getGenericReturnType();
        if (t instanceof ParameterizedType p) {
            Type arg = p.getActualTypeArguments()[0];
            if (arg instanceof WildcardType w) {
                arg = w.getUpperBounds()[0];
            }
            if (arg instanceof Class<?> || arg instanceof ParameterizedType) {
                return arg;
            }
        }
        return Object.class;
    }
}
