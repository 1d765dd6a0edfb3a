package dev.idempotency.internal.stores.jpa;

import static dev.idempotency.spi.StoreSupport.keyHash;

import java.lang.System.Logger.Level;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sending side of PostgreSQL's settlement notices ({@link SettlementNotices} is the listening
 * side): complete and release hand the key they settled to {@link #send} once it is committed, and a
 * daemon thread, {@code idempotency-jpa-notify}, sends the keys waiting at that moment in one statement
 * ({@link #SQL}, one notice per key on {@value JpaIdempotencyStore#CHANNEL}) on one connection of the
 * data source kept for the purpose, in autocommit.
 *
 * <p>Why not in the settling statement itself: PostgreSQL holds a global lock from a notifying commit's
 * queue insert until its WAL flush, so concurrent notifying commits run one at a time, and owners lost
 * most of their throughput to it (docs/performance.md). Here owners' commits notify nothing; the one
 * thread pays the lock, once per batch, and a batch is whatever accumulated during the previous one,
 * so batches grow with the load by themselves.
 *
 * <p>Best effort, like the notices themselves: a key that finds the queue full ({@link #CAPACITY}), or
 * that was in a batch whose connection failed, is dropped (counted, at DEBUG); a waiter then learns of
 * the settlement at its next look at the store, at most 250 ms later (the engine's rule). A lost
 * connection is replaced after {@link SettlementNotices#RECONNECT_PAUSE_MILLIS}. The thread starts at
 * the first key, so a store that never settles keeps no connection.
 */
final class SettlementNotifier {

    private static final System.Logger LOG = System.getLogger(SettlementNotifier.class.getName());
    /** One notice per key (a key is at most 64 ASCII characters, far below the 8000-byte payload limit). */
    static final String SQL = "SELECT pg_notify(?, k) FROM unnest(?::text[]) AS k";
    /** Keys waiting to be sent at most: about 1 MB; beyond it keys are dropped rather than owners slowed. */
    static final int CAPACITY = 10_000;
    /** Keys sent in one statement at most. */
    private static final int BATCH = 1000;
    /** How long the thread waits for a key before it checks whether the store closed. */
    private static final long WAIT_MILLIS = 500;

    private final Connections connections;
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private Thread thread;
    private volatile boolean started;
    private volatile boolean closed;

    SettlementNotifier(Connections connections) {
        this.connections = connections;
    }

    /** Sends a notice of {@code key}, whose settlement has committed, soon; never blocks. */
    void send(String key) {
        if (!started) {
            start();
        }
        if (!queue.offer(key)) {
            drop(1, key, "the queue is full");
        }
    }

    private synchronized void start() {
        if (thread == null && !closed) {
            thread = new Thread(this::run, "idempotency-jpa-notify");
            thread.setDaemon(true);
            thread.start();
        }
        started = true;
    }

    /** Stops the thread and closes its connection; keys not yet sent are dropped. Waits about a second at most. */
    void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            started = true; // no start after close
            t = thread;
        }
        if (t == null) {
            return;
        }
        t.interrupt();
        try {
            t.join(2L * WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** For tests and tracing: keys dropped so far. */
    long dropped() {
        return dropped.get();
    }

    /** For tests: keys sent so far. */
    long sent() {
        return sent.get();
    }

    private void run() {
        while (!closed) {
            try (Connection c = connections.kept()) {
                Connections.evictingBroken(c, this::sendAll);
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    break;
                }
                // A restart or failover of the database: waiters poll meanwhile; no operator action.
                LOG.log(
                        Level.DEBUG,
                        "settlement notices on {0} not sent; reconnecting in {1} ms: {2}",
                        JpaIdempotencyStore.CHANNEL,
                        SettlementNotices.RECONNECT_PAUSE_MILLIS,
                        e.toString());
            }
            try {
                Thread.sleep(SettlementNotices.RECONNECT_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            }
        }
    }

    /**
     * Sends batches on one connection until it fails or the store closes, then hands it back to the pool
     * in the autocommit it was found in (the server's pool gives it to the application next).
     */
    private Void sendAll(Connection c) throws SQLException {
        boolean autocommit = c.getAutoCommit();
        if (autocommit) {
            return sendBatches(c);
        }
        c.setAutoCommit(true); // a notice leaves when its transaction commits: at once
        try {
            return sendBatches(c);
        } finally {
            try {
                c.setAutoCommit(false);
            } catch (SQLException | RuntimeException e) {
                // It must not serve the application in autocommit: aborted, the pool drops it.
                LOG.log(Level.DEBUG, "the notifying connection is dropped, not pooled again: {0}", e.toString());
                try {
                    c.abort(Runnable::run);
                } catch (SQLException | RuntimeException | AbstractMethodError ignored) {
                    // The pool finds it broken at its next check.
                }
            }
        }
    }

    private Void sendBatches(Connection c) throws SQLException {
        List<String> batch = new ArrayList<>(BATCH);
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setString(1, JpaIdempotencyStore.CHANNEL);
            while (!closed) {
                String first;
                try {
                    first = queue.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    continue; // close() interrupts; the loop's condition decides
                }
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                Array keys = c.createArrayOf("text", batch.toArray());
                try {
                    ps.setArray(2, keys);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            // one row per notice, of no interest
                        }
                    }
                    sent.addAndGet(batch.size());
                } catch (SQLException | RuntimeException e) {
                    drop(batch.size(), batch.get(0), "the connection failed");
                    throw e;
                } finally {
                    keys.free();
                    batch.clear();
                }
            }
        }
        return null;
    }

    private void drop(int count, String key, String why) {
        long total = dropped.addAndGet(count);
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "settlement notice of key #{0} (and {1} more) dropped, {2}: {3} dropped in all;"
                            + " waiters find these settlements at their next look",
                    keyHash(key),
                    count - 1,
                    why,
                    total);
        }
    }
}
