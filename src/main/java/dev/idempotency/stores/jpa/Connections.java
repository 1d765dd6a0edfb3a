package dev.idempotency.stores.jpa;

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
     * Runs {@code work} on a connection of {@code dataSource} in autocommit; a connection that a pool
     * hands out with autocommit off is switched on for the work and back after.
     */
    static <T> T autocommitted(javax.sql.DataSource dataSource, Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (c.getAutoCommit()) {
                return work.run(c);
            }
            c.setAutoCommit(true);
            try {
                return work.run(c);
            } finally {
                c.setAutoCommit(false);
            }
        }
    }
}
