package dev.idempotency.internal.stores.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.spi.ConfigLookup;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The databases the JPA store is tested on: H2 in memory, and the PostgreSQL and MariaDB servers on
 * 127.0.0.1, each in a schema (database) of its own so that other test suites' tables never collide.
 */
public final class TestDatabases {

    /** PostgreSQL schema and MariaDB database used by the store's tests. */
    static final String TEST_SCHEMA = "idem_jpa_test";

    private TestDatabases() {}

    /** The shipped DDL of the JPA store's table on PostgreSQL. */
    public static java.util.List<String> postgresDdl() {
        return Dialect.POSTGRESQL.ddl();
    }

    public static HikariDataSource h2(String name) {
        return h2(name, 10_000);
    }

    public static HikariDataSource h2(String name, int lockTimeoutMillis) {
        return pool("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=" + lockTimeoutMillis, "sa", "");
    }

    /** Embedded Derby in memory; its lock wait timeout is {@code derby.locks.waitTimeout} seconds. */
    public static HikariDataSource derby(String name) {
        System.setProperty("derby.stream.error.file", "target/derby.log");
        return pool("jdbc:derby:memory:" + name + ";create=true", "app", "app");
    }

    public static HikariDataSource postgres(String schema) {
        run(TestServices.postgresUrl(), "postgres", "", "CREATE SCHEMA IF NOT EXISTS " + schema);
        return pool(TestServices.postgresUrl(schema), "postgres", "");
    }

    public static HikariDataSource mariadb(String database) {
        return mariadb(database, "");
    }

    public static HikariDataSource mariadb(String database, String urlParameters) {
        String db = TestServices.mariadbDatabase(database);
        run("jdbc:mariadb://127.0.0.1:3306/test", "root", "", "CREATE DATABASE IF NOT EXISTS " + db);
        return pool("jdbc:mariadb://127.0.0.1:3306/" + db + urlParameters, "root", "");
    }

    /** A store on {@code ds} in Java SE ({@code separate} mode), in an emptied table. */
    public static JpaIdempotencyStore store(DataSource ds, Clock clock, Map<String, String> config) {
        JpaIdempotencyStore store = JpaStores.resourceLocal(ds, JpaStoreSettings.from(ConfigLookup.of(config)), clock);
        empty(ds);
        return store;
    }

    private static void empty(DataSource ds) {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM " + JpaIdempotencyStore.TABLE);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A store in the joined mode on a caller's transaction bound to the thread, and that transaction. */
    record Joined(JpaIdempotencyStore store, CallerTransactions tx) {
        void close() {
            store.close();
        }
    }

    /** A store whose joined writes go to the thread's {@link CallerTransactions}, in an emptied table. */
    static Joined joined(DataSource ds, Clock clock, Map<String, String> config) {
        CallerTransactions tx = new CallerTransactions(ds);
        JpaIdempotencyStore store = JpaStores.start(tx, JpaStoreSettings.from(ConfigLookup.of(config)), clock);
        empty(ds);
        return new Joined(store, tx);
    }

    private static HikariDataSource pool(String url, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(24);
        config.setMinimumIdle(2);
        return new HikariDataSource(config);
    }

    private static void run(String url, String user, String password, String sql) {
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "The JPA store tests need the database at " + url + " (see CONTRIBUTING.md, 'Tests'): " + e, e);
        }
    }

    /** A data source that records every SQL statement its connections prepare or execute. */
    static final class Recording {
        final List<String> statements = new ArrayList<>();
        final DataSource dataSource;

        Recording(DataSource target) {
            this.dataSource = (DataSource) Proxy.newProxyInstance(
                    TestDatabases.class.getClassLoader(), new Class<?>[] {DataSource.class}, (p, m, args) -> {
                        Object result = invoke(target, m, args);
                        if (result instanceof Connection c) {
                            return connection(c);
                        }
                        return result;
                    });
        }

        synchronized List<String> take() {
            List<String> copy = List.copyOf(statements);
            statements.clear();
            return copy;
        }

        private synchronized void record(String sql) {
            statements.add(sql);
        }

        private Connection connection(Connection target) {
            InvocationHandler h = (p, m, args) -> {
                String name = m.getName();
                if ((name.startsWith("prepare")) && args != null && args[0] instanceof String sql) {
                    record(sql);
                }
                if (name.equals("commit") || name.equals("rollback")) {
                    // A transaction's end is a round trip of its own: the statements pin them too.
                    record(name.toUpperCase(java.util.Locale.ROOT));
                }
                Object result = invoke(target, m, args);
                if (result instanceof Statement st && name.equals("createStatement")) {
                    return statement(st);
                }
                return result;
            };
            return (Connection)
                    Proxy.newProxyInstance(TestDatabases.class.getClassLoader(), new Class<?>[] {Connection.class}, h);
        }

        private Statement statement(Statement target) {
            InvocationHandler h = (p, m, args) -> {
                if (m.getName().startsWith("execute") && args != null && args[0] instanceof String sql) {
                    record(sql);
                }
                return invoke(target, m, args);
            };
            return (Statement)
                    Proxy.newProxyInstance(TestDatabases.class.getClassLoader(), new Class<?>[] {Statement.class}, h);
        }

        private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
