package dev.idempotency.internal.stores.jpa;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds how long the store's statements wait for locks on PostgreSQL: a statement still running at
 * its deadline is cancelled ({@link Statement#cancel}), and fails with SQLState 57014, which the store
 * reads as a lock timeout ({@link JpaIdempotencyStore#isTimeout}), as it read the query timeout's.
 *
 * <p>It replaces {@link Statement#setQueryTimeout} on PostgreSQL, where the driver times every
 * statement with a task on a shared {@code java.util.Timer} and purges that timer after each one,
 * waking the timer's thread every time: on two cores that halved the throughput of duplicate claims
 * at one thread (docs/performance.md). A watch here costs one queue insertion and one volatile write;
 * one daemon thread looks at the watched statements every {@link #SWEEP}, and exits when no statement
 * was watched for {@link #IDLE_SWEEPS} sweeps, so an undeployed application leaves no thread behind.
 *
 * <p>Rules: a statement is cancelled no earlier than its deadline and at most one sweep after it
 * (plus the time the cancel takes). A watch that ended is never cancelled by the sweeper; between the
 * end of a statement's execution and the end of its watch the driver's own rule applies (the
 * PostgreSQL driver cancels only a statement that is executing, and holds the statement's execution
 * until a cancel it started has been sent).
 */
final class StatementWatchdog {

    private static final System.Logger LOG = System.getLogger(StatementWatchdog.class.getName());

    /** How often the sweeper looks at the watched statements. */
    static final Duration SWEEP = Duration.ofMillis(100);

    /** Sweeps without any statement after which the sweeper's thread exits (another starts on demand). */
    static final int IDLE_SWEEPS = 50;

    /** The end of a watch: call {@link #end()} once the statement has executed. */
    interface Watch {
        /** The statement has executed: it is not cancelled any more. */
        void end();
    }

    /** A watch that watches nothing, for a statement bounded in another way. */
    static final Watch NONE = () -> {};

    private final long timeoutNanos;
    private final long sweepNanos;
    private final int idleSweeps;
    private final ConcurrentLinkedQueue<Watched> watched = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** @param timeout how long a statement may run before it is cancelled */
    StatementWatchdog(Duration timeout) {
        this(timeout, SWEEP, IDLE_SWEEPS);
    }

    /** For tests: another sweep interval and idle count. */
    StatementWatchdog(Duration timeout, Duration sweep, int idleSweeps) {
        this.timeoutNanos = timeout.toNanos();
        this.sweepNanos = sweep.toNanos();
        this.idleSweeps = idleSweeps;
    }

    /** Starts watching {@code statement}, which is about to execute; end the watch when it has. */
    Watch watch(Statement statement) {
        Watched w = new Watched(statement, System.nanoTime() + timeoutNanos);
        watched.add(w);
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            startSweeper();
        }
        return w;
    }

    private void startSweeper() {
        Thread t = new Thread(this::sweepUntilIdle, "idempotency-jpa-statement-watchdog");
        t.setDaemon(true);
        t.setContextClassLoader(null);
        t.start();
    }

    private void sweepUntilIdle() {
        try {
            sweepLoop();
        } catch (RuntimeException | Error e) {
            // Let the next watch start a sweeper: with this flag left set, no thread would ever bound the
            // statements again nor drain the queue, which would grow by one entry per statement.
            sweeping.set(false);
            throw e;
        }
    }

    private void sweepLoop() {
        int idle = 0;
        while (true) {
            try {
                TimeUnit.NANOSECONDS.sleep(sweepNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sweeping.set(false);
                return;
            }
            sweep(System.nanoTime());
            if (!watched.isEmpty()) {
                idle = 0;
                continue;
            }
            if (++idle < idleSweeps) {
                continue;
            }
            sweeping.set(false);
            // A watch added after isEmpty() saw sweeping still true and started no sweeper: go on for it.
            if (watched.isEmpty() || !sweeping.compareAndSet(false, true)) {
                return;
            }
            idle = 0;
        }
    }

    /** Forgets ended watches and cancels the statements whose deadline has passed. */
    private void sweep(long now) {
        for (Iterator<Watched> it = watched.iterator(); it.hasNext(); ) {
            Watched w = it.next();
            if (w.get()) {
                it.remove();
            } else if (now - w.deadline >= 0 && w.compareAndSet(false, true)) {
                it.remove();
                cancel(w.statement);
            }
        }
    }

    private static void cancel(Statement statement) {
        try {
            statement.cancel();
        } catch (SQLException | RuntimeException e) {
            // The statement ended or closed meanwhile: nothing is left to bound.
            LOG.log(Level.DEBUG, "cancelling a statement past the lock timeout failed: {0}", e.toString());
        }
    }

    /** Whether a sweeper thread is running (for tests). */
    boolean sweeping() {
        return sweeping.get();
    }

    /** A watched statement; {@code true} once its watch ended or the sweeper took it to cancel. */
    private static final class Watched extends AtomicBoolean implements Watch {
        final Statement statement;
        final long deadline;

        Watched(Statement statement, long deadline) {
            this.statement = statement;
            this.deadline = deadline;
        }

        @Override
        public void end() {
            set(true);
        }
    }
}
