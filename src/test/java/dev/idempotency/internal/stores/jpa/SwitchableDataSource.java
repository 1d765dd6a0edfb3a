package dev.idempotency.internal.stores.jpa;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;

/**
 * A data source that can be taken down, as a database outage looks to the store: no connection. Also
 * an unpooled data source ({@link #unpooled}).
 */
final class SwitchableDataSource extends StubDataSource {

    private final ConnectionSource target;
    private volatile boolean down;

    @FunctionalInterface
    interface ConnectionSource {
        Connection get() throws SQLException;
    }

    SwitchableDataSource(DataSource target) {
        this.target = target::getConnection;
    }

    private SwitchableDataSource(ConnectionSource target) {
        this.target = target;
    }

    /**
     * New connections from the driver on every call, like {@code pool}'s, but no pool: HikariCP closes a
     * connection on any {@link java.sql.SQLTimeoutException}, which a container's pool does not do to a
     * transaction's connection, and which would end the caller's transaction of a joined-mode test.
     */
    static SwitchableDataSource unpooled(com.zaxxer.hikari.HikariDataSource pool) {
        String url = pool.getJdbcUrl();
        String user = pool.getUsername();
        String password = pool.getPassword();
        return new SwitchableDataSource(() -> java.sql.DriverManager.getConnection(url, user, password));
    }

    void down() {
        down = true;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (down) {
            throw new SQLTransientConnectionException("Connection refused (the test took the database down)", "08001");
        }
        return target.get();
    }
}
