package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The connections the PostgreSQL settlement notices keep go back to their pool as they came: on a
 * server's data source the application gets them next. One pool of one connection (HikariCP, whose
 * autocommit is off by default here, as some servers' pools hand connections out), so that the
 * connection taken after the store closed is the one the store kept.
 */
@Tag("services")
class SettlementConnectionsTest {

    private static final Map<String, String> NOTICES = Map.of(JpaStoreSettings.NOTIFY_SETTLEMENTS, "true");

    /**
     * The listening connection: after the store closed, it listens to no channel (a notice sent then
     * does not reach it) and its autocommit is what it was.
     */
    @Test
    void theListeningConnectionGoesBackUnsubscribedWithItsAutocommit() throws Exception {
        try (HikariDataSource pool = onePool()) {
            HandedBack handedBack = new HandedBack(pool);
            JpaIdempotencyStore store = TestDatabases.store(handedBack.dataSource, Clock.systemUTC(), NOTICES);
            assertThat(store.notifySettlements(key -> {}))
                    .as("the store listens")
                    .isTrue();
            int listener = store.notices().backendPid();
            assertThat(listener).as("the listening backend").isNotZero();
            handedBack.autocommits.clear();

            store.close();

            try (Connection c = pool.getConnection()) {
                assertThat(backendPid(c))
                        .as("the pool's one connection is the one that listened")
                        .isEqualTo(listener);
                assertThat(listeningChannels(c))
                        .as("channels it still listens to")
                        .isEmpty();
                notifyOnAnotherConnection();
                c.createStatement().execute("SELECT 1"); // reads whatever the server sent meanwhile
                PGNotification[] kept = c.unwrap(PGConnection.class).getNotifications();
                assertThat(kept).as("notices the driver keeps for nobody").isNullOrEmpty();
            }
            assertThat(handedBack.autocommits)
                    .as("the autocommit of the listening connection as the store handed it back")
                    .containsExactly(false);
        }
    }

    /** The notifying connection: after the store closed, its autocommit is what it was. */
    @Test
    void theNotifyingConnectionGoesBackWithItsAutocommit() throws Exception {
        try (HikariDataSource pool = onePool()) {
            HandedBack handedBack = new HandedBack(pool);
            JpaIdempotencyStore store = TestDatabases.store(handedBack.dataSource, Clock.systemUTC(), NOTICES);
            handedBack.autocommits.clear();
            SettlementNotifier notifier = store.notifier();
            notifier.send("a-key");
            await(() -> notifier.sent() == 1, () -> "notices sent: " + notifier.sent());

            store.close();

            try (Connection c = pool.getConnection()) {
                assertThat(c.getAutoCommit()).isFalse();
            }
            assertThat(handedBack.autocommits)
                    .as("the autocommit of the notifying connection as the store handed it back")
                    .containsExactly(false);
        }
    }

    private static HikariDataSource onePool() {
        TestDatabases.postgres(TestDatabases.TEST_SCHEMA).close(); // creates the schema
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestServices.postgresUrl(TestDatabases.TEST_SCHEMA));
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setAutoCommit(false);
        // Bounds the wait for the one connection, which the store hands back when it closes.
        config.setConnectionTimeout(10_000);
        return new HikariDataSource(config);
    }

    private static int backendPid(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static List<String> listeningChannels(Connection c) throws SQLException {
        List<String> channels = new java.util.ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_listening_channels()")) {
            while (rs.next()) {
                channels.add(rs.getString(1));
            }
        }
        return channels;
    }

    private static void notifyOnAnotherConnection() throws SQLException {
        try (Connection c = DriverManager.getConnection(
                        TestServices.postgresUrl(TestDatabases.TEST_SCHEMA), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("SELECT pg_notify('" + JpaIdempotencyStore.CHANNEL + "', 'after-close')");
        }
    }

    private static void await(BooleanSupplier condition, java.util.function.Supplier<String> seen)
            throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within 10 s; seen: " + seen.get());
            }
            Thread.sleep(10);
        }
    }

    /**
     * A data source over the pool whose connections note their autocommit at the moment they are
     * closed: how the store hands them back, before the pool resets anything of its own.
     */
    private static final class HandedBack {
        final List<Boolean> autocommits = new CopyOnWriteArrayList<>();
        final DataSource dataSource;

        HandedBack(DataSource pool) {
            dataSource = (DataSource) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (p, m, args) -> {
                        Object result = invoke(pool, m, args);
                        return result instanceof Connection c ? connection(c) : result;
                    });
        }

        private Connection connection(Connection target) {
            return (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {Connection.class}, (p, m, args) -> {
                        if (m.getName().equals("close") && !target.isClosed()) {
                            autocommits.add(target.getAutoCommit());
                        }
                        return invoke(target, m, args);
                    });
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
