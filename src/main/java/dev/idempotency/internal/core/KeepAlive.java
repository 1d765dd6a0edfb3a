package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.StorePrimitive;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The lease keep-alive: while a guarded call runs, its claim is renewed ({@link
 * IdempotencyStore#renew}, fenced by the owner token) every third of its lease, so that a duplicate
 * takes the key over only when its owner stopped renewing: the owner's node died, or lost the store
 * for longer than a lease. The lease then bounds how long a crashed caller's key stays blocked, not
 * how long a call may run.
 *
 * <p>A call is renewed from its claim until it is settled (completed, released, or held after a
 * timeout, whose work the guard no longer watches), and for at most {@code
 * idempotency.keep-alive.max-duration}: past it the claim is left to end with its lease, so that a
 * call that never ends (a stage nobody completes) cannot block its key forever.
 *
 * <p>One task on the scheduler looks at the running calls every {@link #TICK} and renews those that
 * are due; a call shorter than a third of its lease costs an entry in a map and nothing else.
 * Thread-safe.
 */
public final class KeepAlive {

    private static final System.Logger LOG = System.getLogger(KeepAlive.class.getName());

    /** How often the running calls are looked at. */
    static final Duration TICK = Duration.ofMillis(50);

    /** Config key: whether running calls' claims are renewed (default true). */
    public static final String ENABLED = "idempotency.keep-alive.enabled";
    /** Config key: how long one call's claim is renewed at most (default PT1H). */
    public static final String MAX_DURATION = "idempotency.keep-alive.max-duration";
    /** Default of {@link #MAX_DURATION}. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofHours(1);

    /** Renews nothing: calls run on their lease alone. */
    public static final KeepAlive OFF = new KeepAlive(null, DEFAULT_MAX_DURATION);

    private final ScheduledExecutorService scheduler;
    private final long maxNanos;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final AtomicBoolean unsupportedReported = new AtomicBoolean();
    private volatile boolean storeCannotRenew;
    private volatile ScheduledFuture<?> ticks;

    private KeepAlive(ScheduledExecutorService scheduler, Duration maxDuration) {
        this.scheduler = scheduler;
        this.maxNanos = maxDuration.toNanos();
    }

    /**
     * A keep-alive that renews on {@code scheduler} (one periodic task, started with the first call).
     *
     * @param maxDuration how long one call's claim is renewed at most
     */
    public static KeepAlive on(ScheduledExecutorService scheduler, Duration maxDuration) {
        Objects.requireNonNull(scheduler, "scheduler");
        if (maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + MAX_DURATION + "' is " + maxDuration + "; set a positive duration such as PT1H.");
        }
        return new KeepAlive(scheduler, maxDuration);
    }

    /** Whether this keep-alive renews anything. */
    public boolean enabled() {
        return scheduler != null && !storeCannotRenew;
    }

    /** How many calls are kept alive now; for tests and diagnostics. */
    int tracked() {
        return running.size();
    }

    /**
     * Starts renewing an owned claim on {@code store}, the store of the claim's operation; each renewal
     * is reported to {@code observer} as {@link StorePrimitive#RENEW} when it times store calls.
     */
    void track(Admission.Owned claim, IdempotencyStore store, IdempotencyObserver observer) {
        track(
                new Claim(
                        claim.key().storeKey(),
                        claim.owner(),
                        claim.policy().lease(),
                        claim.policy().name(),
                        claim.key().toString()),
                store,
                observer);
    }

    /**
     * Starts renewing a claim on {@code store} until {@link #untrack(String)}.
     *
     * @param claim what to renew, and how to name it in logs
     */
    public void track(Claim claim, IdempotencyStore store) {
        track(claim, store, IdempotencyObserver.NONE);
    }

    private void track(Claim claim, IdempotencyStore store, IdempotencyObserver observer) {
        if (!enabled()) {
            return;
        }
        long now = System.nanoTime();
        running.put(claim.owner(), new Running(claim, store, observer, now, now + interval(claim)));
        startTicking();
    }

    /** Stops renewing a claim: its call was settled. */
    void untrack(Admission.Owned claim) {
        untrack(claim.owner());
    }

    /** Stops renewing the claim of {@code owner}: its work was settled. */
    public void untrack(String owner) {
        if (scheduler != null) {
            running.remove(owner);
        }
    }

    /**
     * A claim to keep alive.
     *
     * @param storeKey the key in the store
     * @param owner the claim's owner token
     * @param lease the lease each renewal grants
     * @param operation what the claim guards (an operation, a message consumer), for logs
     * @param display the key as logs show it (its hash, never its value)
     */
    public record Claim(String storeKey, String owner, Duration lease, String operation, String display) {}

    /** Stops the periodic task. */
    public void stop() {
        ScheduledFuture<?> t = ticks;
        if (t != null) {
            t.cancel(false);
        }
        running.clear();
    }

    private void startTicking() {
        if (ticks != null) {
            return;
        }
        synchronized (this) {
            if (ticks == null) {
                long period = TICK.toMillis();
                try {
                    ticks = scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // The application is stopping: nothing to keep alive for.
                    LOG.log(Level.DEBUG, "keep-alive not started: {0}", e.toString());
                    storeCannotRenew = true;
                }
            }
        }
    }

    /** Renews every call that is due. Never throws: a failure is retried at a later tick. */
    void tick() {
        long now = System.nanoTime();
        for (Running r : running.values()) {
            if (now - r.renewAt < 0) {
                continue;
            }
            try {
                renew(r, now);
            } catch (RuntimeException e) {
                // An unexpected failure must not stop the task that keeps the other calls alive.
                LOG.log(Level.DEBUG, r.claim.display() + ": renewing the claim failed", e);
                r.renewAt = now + TICK.toNanos() * 4;
            }
        }
    }

    private void renew(Running r, long now) {
        Claim claim = r.claim;
        if (now - r.started - maxNanos >= 0) {
            running.remove(claim.owner(), r);
            LOG.log(
                    Level.WARNING,
                    "{0}: the call of operation ''{1}'' still runs after {2}; its claim is no longer renewed and ends"
                            + " with its lease ({3}), after which a duplicate runs again. Find out why the call does not"
                            + " end, or raise ''{4}''.",
                    claim.display(),
                    claim.operation(),
                    Duration.ofNanos(maxNanos),
                    claim.lease(),
                    MAX_DURATION);
            return;
        }
        boolean renewed;
        boolean timed = r.observer.timesStoreCalls();
        long started = timed ? System.nanoTime() : 0;
        try {
            renewed = r.store.renew(claim.storeKey(), claim.owner(), claim.lease());
            if (timed) {
                r.observer.storeCall(StorePrimitive.RENEW, System.nanoTime() - started, false);
            }
        } catch (UnsupportedOperationException e) {
            // Cleared before the flag is raised: whoever sees the keep-alive off sees nothing tracked.
            running.clear();
            storeCannotRenew = true;
            if (unsupportedReported.compareAndSet(false, true)) {
                LOG.log(
                        Level.WARNING,
                        "{0} Implement renew in the store (see docs/custom-store.md), or give every operation a lease"
                                + " longer than its slowest call.",
                        e.getMessage());
            }
            return;
        } catch (RuntimeException e) {
            if (timed) {
                r.observer.storeCall(StorePrimitive.RENEW, System.nanoTime() - started, true);
            }
            long leaseEnd = r.renewedAt + claim.lease().toNanos();
            if (now - leaseEnd >= 0 && !r.leaseEndReported) {
                r.leaseEndReported = true;
                LOG.log(
                        Level.WARNING,
                        claim.display() + ": the claim of a running call of operation '"
                                + claim.operation()
                                + "' could not be renewed before its lease ("
                                + claim.lease()
                                + ") ended, because the store failed; a duplicate may now take the key over and run"
                                + " the operation again. Check the store.",
                        e);
            } else {
                LOG.log(
                        Level.DEBUG,
                        "{0}: renewing the claim failed ({1}); trying again",
                        claim.display(),
                        e.toString());
            }
            r.renewAt = now + Math.min(interval(claim), TICK.toNanos() * 4);
            return;
        }
        if (!renewed) {
            // Settled meanwhile (completed or released: nothing to renew), or taken over by a duplicate, or
            // released by an operator. A call that is still running learns it when its outcome is not
            // stored, and the engine reports it then.
            running.remove(claim.owner(), r);
            LOG.log(Level.DEBUG, "{0}: the claim is no longer this call''s; renewal stops", claim.display());
            return;
        }
        r.renewedAt = now;
        r.renewAt = now + interval(claim);
    }

    /** A third of the lease: two renewals may fail before the lease ends. */
    private static long interval(Claim claim) {
        return Math.max(1, claim.lease().toNanos() / 3);
    }

    /** A call being kept alive. Its times are {@link System#nanoTime} readings. */
    private static final class Running {
        final Claim claim;
        final IdempotencyStore store;
        final IdempotencyObserver observer;
        final long started;
        volatile long renewedAt;
        volatile long renewAt;
        volatile boolean leaseEndReported;

        Running(Claim claim, IdempotencyStore store, IdempotencyObserver observer, long started, long renewAt) {
            this.claim = claim;
            this.store = store;
            this.observer = observer;
            this.started = started;
            this.renewedAt = started;
            this.renewAt = renewAt;
        }
    }
}
