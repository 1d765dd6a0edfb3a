package dev.idempotency.internal.stores.jpa;

import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.spi.CallerTransactionRollingBackException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A JTA container's data source. In the {@code separate} mode the caller's transaction, if any, is suspended
 * ({@link JtaTransactionRunner}, {@code @Transactional(NOT_SUPPORTED)}) and no other is begun, so the
 * connection is not enlisted and every statement autocommits: one round trip, no BEGIN and no COMMIT
 * of its own. In the {@code joined} mode the connection is taken inside the caller's transaction, so
 * the container enlists it there (the same connection as the application's JPA and JDBC work on that
 * data source in that transaction).
 */
final class JtaConnections implements Connections {

    private final DataSource dataSource;
    private final JtaTransactionRunner runner;
    private final JoinedMode.Registry registry;
    /**
     * An application's data source (a CDI bean, as on Helidon), not a server's JTA data source: it may
     * hand out a new enlisted connection, a branch of its own, on each call (Helidon's
     * JtaAdaptingDataSource), or join no transaction at all (a plain pool). The joined mode then keeps
     * one connection per transaction, as a server does, and is offered only if a connection taken inside
     * a transaction takes part in it.
     */
    private final boolean applicationDataSource;

    private volatile boolean registryMissing;
    private volatile Boolean enlists;

    JtaConnections(
            DataSource dataSource, JtaTransactionRunner runner, String registryName, boolean applicationDataSource) {
        this.dataSource = dataSource;
        this.runner = runner;
        this.registry = new JoinedMode.Registry(registryName, "The JPA store");
        this.applicationDataSource = applicationDataSource;
    }

    @Override
    public <T> T separate(Work<T> work) throws SQLException {
        if (noTransaction()) {
            // Nothing to suspend: the same as through the runner, without its interceptor (one call
            // less, and no INFO line per call from GlassFish 7's NOT_SUPPORTED interceptor).
            return Connections.autocommitted(dataSource, work);
        }
        try {
            return runner.outsideTransaction(() -> {
                try {
                    return Connections.autocommitted(dataSource, work);
                } catch (SQLException e) {
                    throw new Carrier(e);
                }
            });
        } catch (Carrier c) {
            throw c.sql;
        }
    }

    @Override
    public <T> T joined(Work<T> work, String operation) throws SQLException {
        int status = registry().getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw JoinedMode.noTransaction(operation, "its idempotency record is written", status);
        }
        if (applicationDataSource) {
            return Connections.evictingBroken(transactionConnection(), work);
        }
        try (Connection c = dataSource.getConnection()) {
            return Connections.evictingBroken(c, work);
        }
    }

    /** The one connection of the current transaction, closed when the transaction ends. */
    private Connection transactionConnection() throws SQLException {
        TransactionSynchronizationRegistry r = registry();
        Object key = this;
        Connection c = (Connection) r.getResource(key);
        if (c == null) {
            Connection taken = dataSource.getConnection();
            r.putResource(key, taken);
            r.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int status) {
                    try {
                        taken.close();
                    } catch (SQLException e) {
                        // The pool drops a connection it cannot take back; nothing of the transaction is lost.
                    }
                }
            });
            c = taken;
        }
        return c;
    }

    /** Where a JTA registry is found: a runtime with the JTA API but no transaction manager has none. */
    @Override
    public <T> T settleJoined(Work<T> work, String operation) throws SQLException {
        int status = registry().getTransactionStatus();
        if (JoinedMode.rollingBack(status)) {
            // The claim was written in this transaction and goes with it; writing now would fail anyway.
            throw new CallerTransactionRollingBackException(operation, status);
        }
        return joined(work, operation);
    }

    @Override
    public boolean canJoin() {
        try {
            registry();
        } catch (RuntimeException e) {
            return false;
        }
        return !applicationDataSource || enlists();
    }

    /**
     * Whether a connection of the application's data source taken inside a JTA transaction takes part
     * in it: it does not autocommit there. A plain pool's connection does, and a joined record written
     * on it would commit whatever the transaction does. Asked once, in a transaction of its own.
     */
    private boolean enlists() {
        Boolean e = enlists;
        if (e == null) {
            try {
                e = runner.inNewTransaction(() -> {
                    try (Connection c = dataSource.getConnection()) {
                        return !c.getAutoCommit();
                    } catch (SQLException x) {
                        throw new Carrier(x);
                    }
                });
            } catch (RuntimeException x) {
                e = false; // no transaction could begin, or no connection: nothing to join
            }
            enlists = e;
        }
        return e;
    }

    @Override
    public void afterCommit(Runnable action) {
        registry().registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }

    /** Whether this thread has no JTA transaction; false when that cannot be told (no registry). */
    private boolean noTransaction() {
        if (registryMissing) {
            return false;
        }
        try {
            return registry().getTransactionStatus() == Status.STATUS_NO_TRANSACTION;
        } catch (RuntimeException e) {
            registryMissing = true; // the runner suspends whatever there is; the joined mode reports it
            return false;
        }
    }

    private TransactionSynchronizationRegistry registry() {
        return registry.get();
    }

    /** Carries a checked SQLException through the runner's Supplier. */
    private static final class Carrier extends RuntimeException {
        final SQLException sql;

        Carrier(SQLException sql) {
            super(null, sql, false, false);
            this.sql = sql;
        }
    }

    @Override
    public Connection kept() throws SQLException {
        return dataSource.getConnection();
    }
}
