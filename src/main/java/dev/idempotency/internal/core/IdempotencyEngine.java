package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.Participation;
import dev.idempotency.spi.CallerTransactionRollingBackException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import dev.idempotency.spi.RecordStatus;
import dev.idempotency.spi.StorePrimitive;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the record state machine of {@link RecordLifecycle} against a store, for every entry point:
 * {@link #begin} decides whether a call runs, replays or fails; the caller then reports the outcome
 * with {@link #complete} or gives the key back with {@link #release}.
 *
 * <p>Thread-safe; one instance serves the whole application.
 */
public final class IdempotencyEngine {

    private static final System.Logger LOG = System.getLogger(IdempotencyEngine.class.getName());
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * How long a waiter whose key's running call is on this node waits for its signal before it looks
     * at the store again (the call may have been held after a timeout, or its lease ended).
     */
    private static final long LOCAL_OWNER_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * The longest pause of a waiter whose key's running call is on another node, when the store
     * notifies settlements ({@link IdempotencyStore#notifySettlements}): the notice wakes it, and this
     * bounds the delay when a notice is lost.
     */
    private static final long NOTIFIED_MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final IdempotencyStore store;
    /**
     * Whether the store tells this engine of settlements made on other nodes; asked when a call first
     * waits (not at construction: a store bean may start only when first used).
     */
    private volatile Boolean notified;
    /** The transaction participation of each operation planned so far ({@link #planned}). */
    private final ConcurrentHashMap<String, Participation> operations = new ConcurrentHashMap<>();

    private final Duration retryAfter;
    private final IdempotencyObserver observer;
    private final boolean timed;
    private final String tokenPrefix;
    private final AtomicLong tokenCounter = new AtomicLong();
    private final WaitLimits.Waiters waiters;
    private final KeepAlive keepAlive;
    private final String application;

    /** @param store where records live */
    public IdempotencyEngine(IdempotencyStore store) {
        this(store, GlobalSettings.DEFAULT_RETRY_AFTER, IdempotencyObserver.NONE);
    }

    /**
     * @param store where records live
     * @param retryAfter the retry hint of an in-progress refusal ({@code idempotency.retry-after})
     */
    public IdempotencyEngine(IdempotencyStore store, Duration retryAfter) {
        this(store, retryAfter, IdempotencyObserver.NONE);
    }

    /**
     * @param store where records live
     * @param observer receives every decision and store call (metrics)
     */
    public IdempotencyEngine(IdempotencyStore store, IdempotencyObserver observer) {
        this(store, GlobalSettings.DEFAULT_RETRY_AFTER, observer);
    }

    /**
     * @param store where records live
     * @param retryAfter the retry hint of an in-progress refusal ({@code idempotency.retry-after}); a
     *     refusal never suggests more than the running call's remaining lease
     * @param observer receives every decision and store call (metrics)
     */
    public IdempotencyEngine(IdempotencyStore store, Duration retryAfter, IdempotencyObserver observer) {
        this(store, retryAfter, observer, WaitLimits.DEFAULT);
    }

    /**
     * @param store where records live
     * @param retryAfter the retry hint of an in-progress refusal ({@code idempotency.retry-after})
     * @param observer receives every decision and store call (metrics)
     * @param waitLimits how many calls may wait for running calls ({@code idempotency.wait.*})
     */
    public IdempotencyEngine(
            IdempotencyStore store, Duration retryAfter, IdempotencyObserver observer, WaitLimits waitLimits) {
        this(store, retryAfter, observer, waitLimits, KeepAlive.OFF);
    }

    /**
     * @param store where records live
     * @param retryAfter the retry hint of an in-progress refusal ({@code idempotency.retry-after})
     * @param observer receives every decision and store call (metrics)
     * @param waitLimits how many calls may wait for running calls ({@code idempotency.wait.*})
     * @param keepAlive renews the claims of running calls ({@code idempotency.keep-alive.*})
     */
    public IdempotencyEngine(
            IdempotencyStore store,
            Duration retryAfter,
            IdempotencyObserver observer,
            WaitLimits waitLimits,
            KeepAlive keepAlive) {
        this(store, retryAfter, observer, waitLimits, keepAlive, "");
    }

    /**
     * @param store where records live
     * @param retryAfter the retry hint of an in-progress refusal ({@code idempotency.retry-after})
     * @param observer receives every decision and store call (metrics)
     * @param waitLimits how many calls may wait for running calls ({@code idempotency.wait.*})
     * @param keepAlive renews the claims of running calls ({@code idempotency.keep-alive.*})
     * @param application the application's name in record keys ({@code idempotency.application}), or empty
     */
    public IdempotencyEngine(
            IdempotencyStore store,
            Duration retryAfter,
            IdempotencyObserver observer,
            WaitLimits waitLimits,
            KeepAlive keepAlive,
            String application) {
        this.application = Objects.requireNonNull(application, "application");
        this.keepAlive = Objects.requireNonNull(keepAlive, "keepAlive");
        this.waiters = waitLimits.waiters();
        this.store = Objects.requireNonNull(store, "store");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
        this.observer = Objects.requireNonNull(observer, "observer");
        observer.attached(store);
        this.timed = observer.timesStoreCalls();
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        // 96 random bits per engine, then a counter: unique across nodes and restarts, and far cheaper
        // per call than a random UUID.
        this.tokenPrefix = HexFormat.of().formatHex(random) + "-";
    }

    /** Whether the store notifies settlements; subscribes this engine's waiters on the first call. */
    private boolean notified() {
        Boolean n = notified;
        if (n == null) {
            synchronized (this) {
                n = notified;
                if (n == null) {
                    n = store.notifySettlements(waiters::settled);
                    notified = n;
                }
            }
        }
        return n;
    }

    /**
     * The store this engine uses, as calls that belong to no operation see it (message attempts,
     * one-time tokens, cluster locks, the purge, inspection).
     */
    public IdempotencyStore store() {
        return store;
    }

    /**
     * Logs an operation's effective settings, once per operation, at INFO: what the annotation and the
     * configuration resolved to, so that a deployment's log confirms which mode and lease each got.
     * Entry points call it when they plan an operation.
     *
     * @param entryPoint how the operation is reached, such as {@code CDI} or {@code HTTP}
     */
    public void planned(OperationPolicy policy, String entryPoint) {
        Participation before = operations.putIfAbsent(policy.name(), policy.transaction());
        if (before != null) {
            if (before != policy.transaction()) {
                throw disagreeing(policy.name(), before, policy.transaction());
            }
            return;
        }
        boolean joined = policy.joined();
        LOG.log(
                Level.INFO,
                "idempotent operation ''{0}'' ({1}): ttl {2}, lease {3}{4}, onInProgress {5}, key {6}, {7} transaction"
                        + " mode",
                policy.name(),
                entryPoint,
                policy.ttl(),
                policy.lease(),
                keepAlive.enabled() && !joined ? " (renewed while running)" : "",
                policy.onInProgress(),
                policy.required() ? "required" : "optional",
                joined ? "joined" : "separate");
    }

    /**
     * Starts the store (one that starts lazily starts here, and a configuration it cannot work with
     * throws), then refuses operations in the joined transaction mode when the store cannot join
     * ({@link IdempotencyStore#canJoinCallerTransaction}). Entry points call it once at deployment, when
     * every operation is known.
     *
     * @param unplanned operations not {@link #planned} through this engine (HTTP routes known at startup)
     * @throws IdempotencyConfigurationException naming the joined operations and the fix
     */
    public void checkTransactions(java.util.Map<String, Participation> unplanned) {
        boolean canJoin = store.canJoinCallerTransaction();
        java.util.Set<String> joined = new java.util.TreeSet<>();
        operations.forEach((name, transaction) -> {
            if (transaction == Participation.JOINED) {
                joined.add(name);
            }
        });
        unplanned.forEach((name, transaction) -> {
            Participation planned = operations.get(name);
            if (planned != null && planned != transaction) {
                throw disagreeing(name, planned, transaction);
            }
            if (transaction == Participation.JOINED) {
                joined.add(name);
            }
        });
        if (joined.isEmpty()) {
            return;
        }
        if (!canJoin) {
            throw new IdempotencyConfigurationException("The operations " + joined + " join the caller's"
                    + " transaction (@Idempotent(transaction = JOINED) or the config key"
                    + " '<class>/<method>/Idempotent/transaction'), but the idempotency store ("
                    + store.getClass().getSimpleName() + ") cannot write in it. Use a store that can (config key"
                    + " 'idempotency.store': the JPA store on PostgreSQL, MariaDB/MySQL or H2, whose data source"
                    + " ('idempotency.jpa.datasource') takes part in JTA transactions; the Infinispan store in a"
                    + " cluster), or set their transaction to separate.");
        }
        LOG.log(Level.INFO, "idempotency: operations in the joined transaction mode: {0}", joined);
    }

    private static IdempotencyConfigurationException disagreeing(String name, Participation one, Participation other) {
        return new IdempotencyConfigurationException("Operation '" + name + "' is planned with transaction = " + one
                + " and, by another method, with transaction = " + other + ": the methods of one operation share"
                + " its records, so they must agree. Give them the same transaction setting, or different"
                + " operation names.");
    }

    /** The operations planned so far ({@link #planned}), with their transaction participation. */
    public java.util.Map<String, Participation> operations() {
        return java.util.Map.copyOf(operations);
    }

    /** The observer this engine reports to. */
    public IdempotencyObserver observer() {
        return observer;
    }

    /**
     * The record keys of an operation's callers in one scope, in this application's namespace: entry
     * points derive every record key here, so that {@code idempotency.application} applies to all.
     */
    public RecordKey.Namespace keys(String operation, String scope) {
        return RecordKey.namespace(application, operation, scope);
    }

    /** The application's name in record keys ({@code idempotency.application}), or empty. */
    public String application() {
        return application;
    }

    /** The record key of a client key: {@code keys(operation, scope).key(key)}. */
    public RecordKey key(String operation, String scope, String key) {
        return RecordKey.of(application, operation, scope, key);
    }

    /**
     * The events handle of an operation. Entry points call this once per operation, when they plan
     * it, and pass the handle to {@link #begin(OperationPolicy, RecordKey, String, OperationEvents)}.
     */
    public OperationEvents events(String operation) {
        return observer.operation(operation);
    }

    /**
     * Like {@link #begin(OperationPolicy, RecordKey, String, OperationEvents)}, looking the operation's
     * events up on every call; entry points hold the handle instead.
     */
    public Admission begin(OperationPolicy policy, RecordKey key, String fingerprint) {
        return begin(policy, key, fingerprint, events(policy.name()));
    }

    /**
     * Decides what a call with this key and fingerprint does.
     *
     * @param events where the decision is reported (the operation's handle from {@link #events})
     * @return {@link Admission.Owned} when the call must run, {@link Admission.Replay} when it must replay
     * @throws IdempotencyKeyMismatchException the key's record was made with another fingerprint
     * @throws IdempotencyInProgressException another call holds the key (REJECT, or WAIT timed out)
     * @throws IdempotencyStoreUnavailableException the store failed; the call must not run
     */
    public Admission begin(OperationPolicy policy, RecordKey key, String fingerprint, OperationEvents events) {
        String owner = newOwner();
        long waitStarted = 0;
        boolean waiting = false;
        long seen = 0;
        long pause = FIRST_PAUSE_NANOS;
        try {
            while (true) {
                if (waiting) {
                    seen = waiters.settledCount(key.storeKey());
                }
                ClaimResult result;
                try {
                    result = claim(policy, key, owner, fingerprint);
                } catch (IdempotencyStoreUnavailableException e) {
                    events.storeUnavailable();
                    throw e;
                }
                IdempotencyRecord record = result.record();
                if (result.claimed()) {
                    boolean tookOver = RecordLifecycle.isTakeover(result.replaced());
                    events.executed(tookOver);
                    Admission.Owned owned = new Admission.Owned(key, owner, policy, tookOver, events);
                    if (keptAlive(policy)) {
                        keepAlive.track(owned, store, observer);
                    }
                    return owned;
                }
                if (!record.fingerprint().equals(fingerprint)) {
                    LOG.log(Level.DEBUG, "{0}: key reused with different arguments", key);
                    events.mismatched();
                    throw new IdempotencyKeyMismatchException(policy.name(), key.hash());
                }
                if (record.status() == RecordStatus.COMPLETED) {
                    LOG.log(Level.DEBUG, "{0}: replaying the stored outcome", key);
                    events.replayed();
                    return new Admission.Replay(key, record.outcome());
                }
                Duration retryAfter = retryAfter(record);
                if (policy.onInProgress() == InProgressPolicy.REJECT) {
                    LOG.log(Level.DEBUG, "{0}: rejected, another call is in progress", key);
                    events.refusedInProgress();
                    throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
                }
                long now = System.nanoTime();
                if (!waiting) {
                    if (!waiters.enter(key, policy.joined())) {
                        LOG.log(Level.DEBUG, "{0}: refused, too many calls already wait for running calls", key);
                        events.refusedInProgress();
                        throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
                    }
                    waiting = true;
                    waitStarted = now;
                    notified(); // subscribes to the store's notices before this call's first look
                    // Look again at once: from now on a settlement on this node wakes this call, and one
                    // that came before is seen in the store.
                    seen = waiters.settledCount(key.storeKey());
                    continue;
                }
                long left = policy.lease().toNanos() - (now - waitStarted);
                if (left <= 0) {
                    LOG.log(Level.DEBUG, "{0}: waited the whole lease, the running call did not finish", key);
                    events.refusedInProgress();
                    throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
                }
                // A running call of this node wakes its waiters when it settles the key, so they need not
                // poll; so does a store that notifies settlements, for calls of other nodes, with a
                // slower look at the store in case a notice is lost. Other waiters (and those of a record
                // that commits with the caller's transaction, after its settlement) poll at growing
                // intervals.
                boolean joined = policy.joined();
                boolean ownedHere =
                        !joined && record.owner() != null && record.owner().startsWith(tokenPrefix);
                awaitSettled(
                        key,
                        seen,
                        Math.min(ownedHere ? LOCAL_OWNER_PAUSE_NANOS : pause, left),
                        policy,
                        retryAfter,
                        events);
                if (!ownedHere) {
                    pause = Math.min(pause * 2, !joined && notified() ? NOTIFIED_MAX_PAUSE_NANOS : MAX_PAUSE_NANOS);
                }
            }
        } finally {
            if (waiting) {
                waiters.leave(key, policy.joined());
            }
        }
    }

    /** A new owner token: this engine's random prefix and a counter, unique across nodes and restarts. */
    private String newOwner() {
        return tokenPrefix + Long.toString(tokenCounter.incrementAndGet(), 36);
    }

    /**
     * Whether the claims of an operation are renewed while its calls run: when the keep-alive is on,
     * and the operation's store does not write them in the caller's transaction (an uncommitted claim
     * is held by that transaction, and no other connection could renew it).
     */
    private boolean keptAlive(OperationPolicy policy) {
        return keepAlive.enabled() && !policy.joined();
    }

    /** The keep-alive of this engine. */
    public KeepAlive keepAlive() {
        return keepAlive;
    }

    /**
     * Neither stores nor releases an owned call whose outcome is unknown (it timed out while its work
     * may still run, and its end cannot be seen): its claim is extended to the operation's retention
     * ({@code ttl}) and no longer renewed, so that no retry runs the work again while a retry could still
     * come; a retry gets what a duplicate of a running call gets. An operator who knows the outcome
     * releases the key ({@code RecordInspector}). A claim in the caller's transaction ends with that
     * transaction instead. Never throws: if the store fails, the claim frees itself when its lease ends.
     */
    public void hold(Admission.Owned claim) {
        keepAlive.untrack(claim);
        if (claim.policy().joined()) {
            return;
        }
        long started = started();
        try {
            boolean held = store.renew(
                    claim.key().storeKey(), claim.owner(), claim.policy().ttl());
            finished(StorePrimitive.RENEW, started, false);
            if (!held) {
                LOG.log(Level.DEBUG, "{0}: the timed-out call's claim was no longer its own", claim.key());
            }
        } catch (RuntimeException e) {
            finished(StorePrimitive.RENEW, started, true);
            LOG.log(
                    Level.WARNING,
                    claim.key() + ": the claim of a call that timed out while its work may still run could not be"
                            + " held for its retention (" + claim.policy().ttl() + "), so it frees itself when its"
                            + " lease ends (" + claim.policy().lease() + ") and a retry after that runs the work"
                            + " again. Check the store. Cause: " + e);
        }
    }

    /**
     * Stores the outcome of an owned call whose claim was in its caller's transaction, after that
     * transaction rolled back (the claim and the call's work with it): in a record of its own, claimed
     * and completed on this engine's store itself, outside any transaction. Nothing the call did
     * remains, so keeping its answer cannot hide an effect, and a repeat replays the answer instead of
     * running again. If another call claimed the key since the rollback, that call's record stands.
     *
     * @param fingerprint the call's fingerprint
     * @return true if the outcome was stored; never throws (a failure is logged at DEBUG, and the key
     *     stays free, as after any rollback)
     */
    public boolean storeAfterRollback(Admission.Owned claim, String fingerprint, byte[] outcome) {
        String owner = newOwner();
        String key = claim.key().storeKey();
        try {
            // Outside any transaction: the caller's has rolled back.
            GuardedOperation separate = new GuardedOperation(claim.policy().name(), Participation.SEPARATE);
            ClaimResult again = store.claim(
                    separate, key, owner, fingerprint, claim.policy().lease());
            if (!again.claimed()) {
                LOG.log(Level.DEBUG, "{0}: another call claimed the key after the rollback", claim.key());
                return false;
            }
            if (store.complete(separate, key, owner, outcome, claim.policy().ttl())) {
                return true;
            }
            store.release(separate, key, owner);
            return false;
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, claim.key() + ": the outcome of a rolled-back call could not be stored", e);
            return false;
        }
    }

    /** How many calls wait ({@code onInProgress = WAIT}) for running calls now. */
    int waiting() {
        return waiters.waiting();
    }

    /**
     * Stores the outcome of an owned call. Never throws: the operation already ran, so a failure to
     * record is logged (with the key's hash) and the claim stays until its lease ends.
     *
     * @return true if the outcome was stored
     */
    public boolean complete(Admission.Owned claim, byte[] outcome) {
        return complete(claim, outcome, false);
    }

    /**
     * Stores the outcome of an owned call inside the transaction of a store that joins it. A failure
     * is logged at DEBUG only, since the caller rolls the transaction back (nothing ran, as far as
     * anyone can tell) and the store reports an outage itself.
     *
     * @return true if the outcome was stored; false tells the caller to roll its transaction back
     * @throws CallerTransactionRollingBackException the transaction will not commit (the work marked it
     *     for rollback): nothing was stored, the claim ends with the rollback, and the caller hands the
     *     call's own outcome on
     */
    public boolean completeInTransaction(Admission.Owned claim, byte[] outcome) {
        return complete(claim, outcome, true);
    }

    private boolean complete(Admission.Owned claim, byte[] outcome, boolean joined) {
        try {
            return completeOnce(claim, outcome, joined);
        } finally {
            // After the store call: the claim stays renewed while a completion retries a failing store.
            keepAlive.untrack(claim);
            waiters.settled(claim.key().storeKey());
        }
    }

    private boolean completeOnce(Admission.Owned claim, byte[] outcome, boolean joined) {
        long started = started();
        boolean failed = true;
        try {
            boolean done = store.complete(
                    claim.policy().guarded(),
                    claim.key().storeKey(),
                    claim.owner(),
                    outcome,
                    claim.policy().ttl());
            failed = false;
            finished(StorePrimitive.COMPLETE, started, false);
            if (!done) {
                claim.events().outcomeNotStored(false);
                LOG.log(
                        joined ? Level.DEBUG : Level.WARNING,
                        "{0}: the outcome was not stored because the key is no longer claimed by this call."
                                + " Usually the call ran longer than its lease ({1}) and another call took the key"
                                + " over: raise the lease of ''{2}''.",
                        claim.key(),
                        claim.policy().lease(),
                        claim.policy().name());
            }
            return done;
        } catch (CallerTransactionRollingBackException e) {
            // Not a failure of the store: the work's own transaction rolls back, and the claim with it.
            finished(StorePrimitive.COMPLETE, started, false);
            claim.events().released(ReleaseCause.ROLLBACK);
            LOG.log(Level.DEBUG, "{0}: the call''s transaction rolls back; nothing stored", claim.key());
            throw e;
        } catch (RuntimeException e) {
            if (failed) {
                finished(StorePrimitive.COMPLETE, started, true);
            }
            claim.events().outcomeNotStored(true);
            if (joined) {
                LOG.log(
                        Level.DEBUG,
                        claim.key() + ": the outcome could not be stored in the call's transaction, which rolls back",
                        e);
            } else {
                LOG.log(
                        Level.ERROR,
                        claim.key() + ": the operation ran but its outcome could not be stored; the key stays claimed"
                                + " until its lease ends (" + claim.policy().lease() + ")",
                        e);
            }
            return false;
        }
    }

    /**
     * Gives an owned key back, for a reason the caller does not state ({@link ReleaseCause#OTHER}).
     *
     * @return true if the claim was deleted
     */
    public boolean release(Admission.Owned claim) {
        return release(claim, ReleaseCause.OTHER);
    }

    /**
     * Gives an owned key back, so that the next call runs. Never throws: if the store fails, the
     * claim frees itself when its lease ends.
     *
     * @param cause why, for the operation's events
     * @return true if the claim was deleted
     */
    public boolean release(Admission.Owned claim, ReleaseCause cause) {
        try {
            return releaseOnce(claim, cause);
        } finally {
            keepAlive.untrack(claim);
            waiters.settled(claim.key().storeKey());
        }
    }

    private boolean releaseOnce(Admission.Owned claim, ReleaseCause cause) {
        long started = started();
        try {
            boolean released =
                    store.release(claim.policy().guarded(), claim.key().storeKey(), claim.owner());
            finished(StorePrimitive.RELEASE, started, false);
            if (released) {
                claim.events().released(cause);
            }
            return released;
        } catch (CallerTransactionRollingBackException e) {
            // A joined claim in a transaction that rolls back: the rollback gives the key back.
            finished(StorePrimitive.RELEASE, started, false);
            claim.events().released(ReleaseCause.ROLLBACK);
            LOG.log(Level.DEBUG, "{0}: released by the rollback of the call''s transaction", claim.key());
            return true;
        } catch (RuntimeException e) {
            finished(StorePrimitive.RELEASE, started, true);
            LOG.log(
                    Level.ERROR,
                    claim.key() + ": the key could not be released; it frees itself when its lease ends ("
                            + claim.policy().lease() + ")",
                    e);
            return false;
        }
    }

    private ClaimResult claim(OperationPolicy policy, RecordKey key, String owner, String fingerprint) {
        long started = started();
        try {
            ClaimResult result =
                    store.claim(policy.guarded().by(key.caller()), key.storeKey(), owner, fingerprint, policy.lease());
            finished(StorePrimitive.CLAIM, started, false);
            return result;
        } catch (IdempotencyStoreUnavailableException e) {
            finished(StorePrimitive.CLAIM, started, true);
            if (e.operation() == null) {
                // The store did not name the operation: name it for the caller.
                throw new IdempotencyStoreUnavailableException(
                        policy.name(), key.hash(), "Operation '" + policy.name() + "': " + e.getMessage(), e);
            }
            throw e;
        } catch (IdempotencyConfigurationException e) {
            finished(StorePrimitive.CLAIM, started, true);
            // A misconfigured store names its own fix; wrapping it as "unavailable, retry later" would hide it.
            throw e;
        } catch (RuntimeException e) {
            finished(StorePrimitive.CLAIM, started, true);
            throw new IdempotencyStoreUnavailableException(
                    policy.name(),
                    key.hash(),
                    "The idempotency store failed while claiming key #" + key.hash() + " of operation '" + policy.name()
                            + "', so the operation did not run; retry later. Cause: " + e,
                    e);
        }
    }

    /**
     * When a refused caller should try again: the configured hint, which is about a call's duration,
     * but never later than the running call's lease ends (the latest moment a retry makes sense). The
     * remaining lease alone would tell a client to wait a minute for a call that takes a tenth of a
     * second.
     */
    private Duration retryAfter(IdempotencyRecord running) {
        Duration remaining = RecordLifecycle.remaining(running, Instant.now());
        return remaining.compareTo(retryAfter) < 0 ? remaining : retryAfter;
    }

    /** When a store call starts, if store calls are timed (no clock read otherwise). */
    private long started() {
        return timed ? System.nanoTime() : 0L;
    }

    /** Reports a store call that started at {@code started}, if store calls are timed. */
    private void finished(StorePrimitive primitive, long started, boolean failed) {
        if (timed) {
            observer.storeCall(primitive, System.nanoTime() - started, failed);
        }
    }

    /** Waits up to {@code nanos} for a call of this node to settle {@code key} after {@code seen}. */
    private void awaitSettled(
            RecordKey key, long seen, long nanos, OperationPolicy policy, Duration retryAfter, OperationEvents events) {
        try {
            waiters.await(key.storeKey(), seen, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            events.refusedInProgress();
            throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
        }
    }
}
