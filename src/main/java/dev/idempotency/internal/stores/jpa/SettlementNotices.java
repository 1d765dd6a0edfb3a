package dev.idempotency.internal.stores.jpa;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL's settlement notices ({@link JpaIdempotencyStore#notifySettlements}), with {@code
 * idempotency.jpa.notify-settlements=true}: every committed completion and release is sent as a
 * {@code pg_notify} on {@value JpaIdempotencyStore#CHANNEL} with its key ({@link SettlementNotifier});
 * here one connection of the store's data source, kept for the purpose, runs {@code LISTEN} on the channel, and
 * a daemon thread, {@code idempotency-jpa-settled}, waits for notices on it and hands each key to the
 * listeners.
 *
 * <p>The only class of the store that uses the PostgreSQL driver's own API ({@link PGConnection}, a
 * compile-time dependency only): it is used only on PostgreSQL, and {@link #reachable} tells whether
 * the data source's connections unwrap to the driver's, which a server whose driver the application
 * cannot see does not allow; then this node does not listen, and its waiters poll.
 *
 * <p>A lost connection (a restarted or failed-over database, a terminated backend) is replaced after
 * {@link #RECONNECT_PAUSE_MILLIS}; one that was silent for {@link #CHECK_AFTER_NANOS} is checked, so
 * that a connection whose peer vanished without a word is replaced too. Notices sent meanwhile are
 * lost: waiters look at the store at least every 250 ms (the engine's rule), so a lost notice costs
 * latency, never a result.
 */
final class SettlementNotices {

    private static final System.Logger LOG = System.getLogger(SettlementNotices.class.getName());
    /** How long one wait for notices lasts: bounds how long {@link #close} waits for the thread. */
    private static final int WAIT_MILLIS = 500;
    /** The pause before a lost connection is replaced, so that a failover is not met by a storm. */
    static final long RECONNECT_PAUSE_MILLIS = 1000;
    /** After this long without a notice the connection is checked ({@link Connection#isValid}). */
    private static final long CHECK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final int CHECK_TIMEOUT_SECONDS = 5;
    /** How long the first subscriber waits for the first {@code LISTEN}, so that its first notice is heard. */
    private static final long FIRST_LISTEN_WAIT_MILLIS = 2000;

    private final Connections connections;
    private final CopyOnWriteArrayList<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstListen = new CountDownLatch(1);
    private final AtomicInteger sessions = new AtomicInteger();
    private Thread thread;
    private volatile boolean closed;
    private volatile int backendPid;

    SettlementNotices(Connections connections) {
        this.connections = connections;
    }

    /**
     * Whether the store can listen through connections like {@code c}: the PostgreSQL driver is
     * visible to this library, and the data source's connection unwraps to it.
     */
    static boolean reachable(Connection c) {
        try {
            return c.isWrapperFor(PGConnection.class);
        } catch (SQLException | RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, "settlement notices unavailable, waiters poll: {0}", e.toString());
            return false;
        }
    }

    /**
     * Adds a listener; the first one starts the thread, and waits (a bounded while) until it listens,
     * so that a settlement right after this returns is heard.
     */
    void subscribe(Consumer<String> listener) {
        listeners.add(listener);
        synchronized (this) {
            if (thread == null && !closed) {
                thread = new Thread(this::run, "idempotency-jpa-settled");
                thread.setDaemon(true);
                thread.start();
            }
        }
        try {
            firstListen.await(FIRST_LISTEN_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the thread and closes its connection; waits for that at most about a second. */
    void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (t == null) {
            return;
        }
        t.interrupt(); // ends a reconnect pause; a wait for notices ends within WAIT_MILLIS
        try {
            t.join(2L * WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** For tests: how many times a connection started listening. */
    int sessions() {
        return sessions.get();
    }

    /** For tests: the backend process of the listening connection, 0 while there is none. */
    int backendPid() {
        return backendPid;
    }

    private void run() {
        while (!closed) {
            try (Connection c = connections.kept()) {
                Connections.evictingBroken(c, this::listen);
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    break;
                }
                // A restart or failover of the database: waiters poll meanwhile; no operator action.
                LOG.log(
                        Level.DEBUG,
                        "settlement notices on {0} lost; listening again in {1} ms: {2}",
                        JpaIdempotencyStore.CHANNEL,
                        RECONNECT_PAUSE_MILLIS,
                        e.toString());
            } finally {
                backendPid = 0;
            }
            try {
                Thread.sleep(RECONNECT_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            }
        }
    }

    /**
     * Listens on one connection until it fails or the store closes, then hands it back as it came
     * ({@link #handBack}).
     */
    private Void listen(Connection c) throws SQLException {
        boolean autocommit = c.getAutoCommit();
        if (!autocommit) {
            c.setAutoCommit(true); // LISTEN takes effect when its transaction commits
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        try {
            return listen(c, pg);
        } finally {
            handBack(c, pg, autocommit);
        }
    }

    /**
     * Before the connection goes back to the pool (a server's data source hands it to the application
     * next): no channel listened to, no notice left in the driver (which keeps every notice it reads,
     * unbounded, until someone asks for them) and its autocommit as it was found. PostgreSQL would
     * otherwise queue every settlement for a session nobody reads, and each redeploy would leave one
     * such connection. One whose state cannot be restored (it failed) is aborted, so that the pool
     * drops it.
     */
    private static void handBack(Connection c, PGConnection pg, boolean autocommit) {
        try {
            try (Statement s = c.createStatement()) {
                s.execute("UNLISTEN *");
            }
            pg.getNotifications(); // those read before the UNLISTEN: dropped, as the store has closed
            if (!autocommit) {
                c.setAutoCommit(false);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "the listening connection is dropped, not pooled again: {0}", e.toString());
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException | AbstractMethodError ignored) {
                // The pool finds it broken at its next check.
            }
        }
    }

    private Void listen(Connection c, PGConnection pg) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + JpaIdempotencyStore.CHANNEL);
        }
        backendPid = pg.getBackendPID();
        sessions.incrementAndGet();
        firstListen.countDown();
        long heard = System.nanoTime();
        while (!closed) {
            PGNotification[] notices = pg.getNotifications(WAIT_MILLIS);
            if (notices != null && notices.length > 0) {
                heard = System.nanoTime();
                for (PGNotification n : notices) {
                    if (JpaIdempotencyStore.CHANNEL.equals(n.getName())) {
                        for (Consumer<String> l : listeners) {
                            l.accept(n.getParameter());
                        }
                    }
                }
            } else if (System.nanoTime() - heard > CHECK_AFTER_NANOS) {
                if (!c.isValid(CHECK_TIMEOUT_SECONDS)) {
                    throw new SQLException("the listening connection did not answer a check", "08006");
                }
                heard = System.nanoTime();
            }
        }
        return null;
    }
}
