package dev.idempotency.internal.stores.jpa;

import dev.idempotency.IdempotencyConfigurationException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Java SE: connections of a (pooled) data source, each store call in autocommit; no caller transaction. */
final class DataSourceConnections implements Connections {

    private final DataSource dataSource;

    DataSourceConnections(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public <T> T separate(Work<T> work) throws SQLException {
        return Connections.autocommitted(dataSource, work);
    }

    @Override
    public <T> T joined(Work<T> work, String operation) {
        throw new IdempotencyConfigurationException("Operation '" + operation
                + "' is configured for the joined transaction mode, but this JPA store runs on a plain data source"
                + " without a transaction manager, so it has no caller's transaction to join. Set its transaction"
                + " to separate, or run the store in a Jakarta EE container (JTA).");
    }

    @Override
    public void afterCommit(Runnable action) {
        throw new IllegalStateException("no caller's transaction: a plain data source has no joined mode");
    }

    @Override
    public Connection kept() throws SQLException {
        return dataSource.getConnection();
    }
}
