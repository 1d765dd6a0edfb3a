package dev.idempotency.internal.stores.jpa;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the store's statements run: on a connection outside any caller's transaction ({@code
 * separate} mode, the toolkit, the purge), or on the connection of the caller's transaction ({@code
 * joined} mode). A JTA container and Java SE provide them differently.
 */
interface Connections {

    /** Work on a connection; the connection belongs to the caller of {@link #separate} or {@link #joined}. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a connection that takes part in no caller's transaction, in autocommit: every
     * statement commits by itself, in the statement's round trip. A caller's JTA transaction is
     * suspended meanwhile.
     */
    <T> T separate(Work<T> work) throws SQLException;

    /**
     * Runs {@code work} on the connection of the caller's active transaction, which its owner commits
     * or rolls back.
     *
     * @param operation the operation, for the error when no transaction is active
     * @throws dev.idempotency.IdempotencyConfigurationException no transaction is active
     */
    <T> T joined(Work<T> work, String operation) throws SQLException;

    /**
     * Runs a complete or release as {@link #joined} does, unless the caller's transaction will not
     * commit: then the record is not written (the claim rolls back with the transaction).
     *
     * @throws dev.idempotency.spi.CallerTransactionRollingBackException the caller's transaction is
     *     marked for rollback or rolling back
     * @throws dev.idempotency.IdempotencyConfigurationException no transaction is active
     */
    default <T> T settleJoined(Work<T> work, String operation) throws SQLException {
        return joined(work, operation);
    }

    /** Whether {@link #joined} can work: there is a transaction manager whose transactions it joins. */
    default boolean canJoin() {
        return false;
    }

    /**
     * Runs {@code action} once the caller's active transaction, the one {@link #joined} works in, has
     * committed, and never after a rollback: how a joined settlement's notice waits for the commit that
     * makes it visible ({@link SettlementNotifier}). The action must be quick and must not throw.
     */
    void afterCommit(Runnable action);

    /**
     * A connection of the data source that the caller keeps for as long as it needs and then closes:
     * the one the PostgreSQL settlement notices are received on ({@link SettlementNotices}). Called on
     * a thread of the store's own, which has no transaction, so the connection is enlisted in none.
     */
    Connection kept() throws SQLException;

    /**
     * Runs {@code work} on a connection of {@code dataSource} in autocommit; a connection that a pool
     * hands out with autocommit off is switched on for the work and back after.
     */
    static <T> T autocommitted(javax.sql.DataSource dataSource, Work<T> work) throws SQLException {
        Connection obtained;
        try {
            obtained = dataSource.getConnection();
        } catch (SQLException e) {
            throw new Unobtainable(e);
        }
        try (Connection c = obtained) {
            return evictingBroken(c, conn -> {
                if (conn.getAutoCommit()) {
                    return work.run(conn);
                }
                conn.setAutoCommit(true);
                try {
                    return work.run(conn);
                } finally {
                    conn.setAutoCommit(false);
                }
            });
        }
    }

    /**
     * Runs {@code work} on a pooled connection and, when it fails because the connection is broken (a
     * reset, a failover, a restarted database: {@link #isConnectionLoss}), aborts the connection
     * ({@link Connection#abort}) before the pool gets it back. A pool that does not validate its
     * connections (Payara's and GlassFish's by default) would otherwise hand the dead connection out
     * again, and every call after a database blip would fail until the server restarts; an aborted one
     * is removed from the pool.
     */
    static <T> T evictingBroken(Connection c, Work<T> work) throws SQLException {
        try {
            return work.run(c);
        } catch (SQLException e) {
            if (isConnectionLoss(e) || isClosed(c)) {
                abort(c, e);
            }
            throw e;
        }
    }

    /**
     * No connection could be had at all (the pool or the database refused one), as opposed to a
     * handed-out connection that turned out broken. Same message, SQLState and cause.
     */
    final class Unobtainable extends SQLException {
        private static final long serialVersionUID = 1L;

        Unobtainable(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
        }
    }

    /** Whether the failure says the connection itself is lost (SQLState class 08 and its kin). */
    static boolean isConnectionLoss(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLRecoverableException
                    || t instanceof java.io.IOException) {
                return true;
            }
            if (t instanceof SQLException s) {
                String state = s.getSQLState();
                int code = s.getErrorCode();
                // 08: connection exception; MariaDB/MySQL 2006 and 2013: server gone, connection lost.
                if ((state != null && state.startsWith("08")) || code == 2006 || code == 2013) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isClosed(Connection c) {
        try {
            return c.isClosed();
        } catch (SQLException | RuntimeException e) {
            return true;
        }
    }

    private static void abort(Connection c, SQLException failure) {
        try {
            c.abort(Runnable::run);
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            failure.addSuppressed(e);
        }
    }
}
