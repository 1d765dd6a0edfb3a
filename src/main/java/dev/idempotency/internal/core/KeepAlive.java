package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.StorePrimitive;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
 * <p>One task on the scheduler looks at the running calls every {@link #TICK} and hands each call that
 * is due to a pool of at most {@link #RENEWERS} threads, which renew it; a call shorter than a third of
 * its lease costs an entry in a map and nothing else. A call has at most one renewal in flight, and the
 * next is due a third of a lease after that one started, so a renewal the store is slow to answer (a
 * lock held on its record, a hung connection, a store's command timeout) delays that call's renewals
 * only: the others go on while fewer than {@link #RENEWERS} renewals hang at once. A call whose own
 * renewal has not returned when its lease ends is reported once at WARN, as one whose renewal failed
 * until then: nothing else can keep its claim. Thread-safe.
 */
public final class KeepAlive {

    private static final System.Logger LOG = System.getLogger(KeepAlive.class.getName());

    /** How often the running calls are looked at. */
    static final Duration TICK = Duration.ofMillis(50);

    /** How many renewals run at once at most; more wait for a free thread. */
    static final int RENEWERS = 8;

    /** How long a renewal thread stays without work before it ends. */
    private static final Duration IDLE = Duration.ofSeconds(30);

    private static final AtomicInteger THREADS = new AtomicInteger();

    /** Config key: whether running calls' claims are renewed (default true). */
    public static final String ENABLED = "idempotency.keep-alive.enabled";
    /** Config key: how long one call's claim is renewed at most (default PT1H). */
    public static final String MAX_DURATION = "idempotency.keep-alive.max-duration";
    /** Default of {@link #MAX_DURATION}. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofHours(1);

    /** Renews nothing: calls run on their lease alone. */
    public static final KeepAlive OFF = new KeepAlive(null, null, DEFAULT_MAX_DURATION);

    private final ScheduledExecutorService scheduler;
    private final ThreadPoolExecutor renewers;
    private final long maxNanos;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final AtomicBoolean unsupportedReported = new AtomicBoolean();
    private volatile boolean storeCannotRenew;
    private volatile boolean stopped;
    private volatile ScheduledFuture<?> ticks;

    private KeepAlive(ScheduledExecutorService scheduler, ThreadFactory threads, Duration maxDuration) {
        this.scheduler = scheduler;
        this.maxNanos = maxDuration.toNanos();
        if (threads == null) {
            this.renewers = null;
        } else {
            // Threads are started as renewals come and end when idle. The queue holds at most one task
            // per tracked call, since a call has at most one renewal in flight.
            this.renewers = new ThreadPoolExecutor(
                    RENEWERS, RENEWERS, IDLE.toNanos(), TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), threads);
            this.renewers.allowCoreThreadTimeOut(true);
        }
    }

    /**
     * A keep-alive that looks at the running calls on {@code scheduler} and renews them on daemon threads
     * of its own.
     *
     * @param maxDuration how long one call's claim is renewed at most
     */
    public static KeepAlive on(ScheduledExecutorService scheduler, Duration maxDuration) {
        return on(scheduler, KeepAlive::daemon, maxDuration);
    }

    /**
     * A keep-alive that looks at the running calls on {@code scheduler} (one periodic task, started with
     * the first call) and renews them on at most {@link #RENEWERS} threads made by {@code threads} (in a
     * container, its managed thread factory: a store may need the application's context).
     *
     * @param maxDuration how long one call's claim is renewed at most
     */
    public static KeepAlive on(ScheduledExecutorService scheduler, ThreadFactory threads, Duration maxDuration) {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(threads, "threads");
        if (maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + MAX_DURATION + "' is " + maxDuration + "; set a positive duration such as PT1H.");
        }
        return new KeepAlive(scheduler, threads, maxDuration);
    }

    private static Thread daemon(Runnable task) {
        Thread t = new Thread(task, "idempotency-keep-alive-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** Whether this keep-alive renews anything. */
    public boolean enabled() {
        return scheduler != null && !storeCannotRenew && !stopped;
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

    /**
     * Stops the periodic task and the renewal threads (interrupting renewals in flight), without waiting
     * for a renewal the store does not answer. Nothing is renewed afterwards.
     */
    public void stop() {
        stopped = true;
        ScheduledFuture<?> t = ticks;
        if (t != null) {
            t.cancel(false);
        }
        if (renewers != null) {
            renewers.shutdownNow();
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

    /**
     * Hands every call that is due, and has no renewal in flight, to the renewal threads. Never blocks
     * on the store, and never throws.
     */
    void tick() {
        long now = System.nanoTime();
        for (Running r : running.values()) {
            if (r.inFlight.get()) {
                reportIfLeaseEnded(r, now, null);
                continue;
            }
            if (now - r.renewAt < 0) {
                continue;
            }
            if (now - r.started - maxNanos >= 0) {
                stopAtMaximum(r);
                continue;
            }
            r.renewalStarted = now;
            r.inFlight.set(true);
            try {
                renewers.execute(() -> renewInFlight(r));
            } catch (RejectedExecutionException e) {
                // Stopped meanwhile: nothing to keep alive for.
                r.inFlight.set(false);
                return;
            }
        }
    }

    /** Runs on a renewal thread: renews {@code r} unless its call was settled while it waited. */
    private void renewInFlight(Running r) {
        long now = System.nanoTime();
        try {
            if (running.get(r.claim.owner()) == r) {
                renew(r, now);
            }
        } catch (RuntimeException e) {
            // An unexpected failure is retried a little later, like a store failure.
            LOG.log(Level.DEBUG, r.claim.display() + ": renewing the claim failed", e);
            r.renewAt = now + TICK.toNanos() * 4;
        } finally {
            // After renewAt was set: the task that sees this sees when the call is due next.
            r.inFlight.set(false);
        }
    }

    private void stopAtMaximum(Running r) {
        Claim claim = r.claim;
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
    }

    /**
     * Reports, once per call, that its lease ended before a renewal got through: {@code failure} is the
     * store's last error, or null while a renewal is still waiting for the store.
     */
    private boolean reportIfLeaseEnded(Running r, long now, RuntimeException failure) {
        Claim claim = r.claim;
        if (stopped
                || now - (r.renewedAt + claim.lease().toNanos()) < 0
                || !r.leaseEndReported.compareAndSet(false, true)) {
            return false;
        }
        String why = failure != null
                ? "because the store failed"
                : "because its renewal, started "
                        + Duration.ofNanos(now - r.renewalStarted).toMillis()
                        + " ms ago, has not returned (the store does not answer for this key: a lock held on its"
                        + " record, a hung connection)";
        LOG.log(
                Level.WARNING,
                claim.display() + ": the claim of a running call of operation '"
                        + claim.operation()
                        + "' could not be renewed before its lease ("
                        + claim.lease()
                        + ") ended, "
                        + why
                        + "; a duplicate may now take the key over and run the operation again. Check the store.",
                failure);
        return true;
    }

    private void renew(Running r, long now) {
        Claim claim = r.claim;
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
            if (!reportIfLeaseEnded(r, System.nanoTime(), e) && !stopped) {
                LOG.log(
                        Level.DEBUG,
                        "{0}: renewing the claim failed ({1}); trying again",
                        claim.display(),
                        e.toString());
            }
            r.renewAt = System.nanoTime() + Math.min(interval(claim), TICK.toNanos() * 4);
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
        /** Whether a renewal is queued or running: a call has one at most. */
        final AtomicBoolean inFlight = new AtomicBoolean();

        final AtomicBoolean leaseEndReported = new AtomicBoolean();
        /** When the last successful renewal started (its lease counts from then at the latest). */
        volatile long renewedAt;

        volatile long renewAt;
        /** When the renewal in flight was handed to the renewal threads. */
        volatile long renewalStarted;

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
