package dev.idempotency;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Where the tests find the machine's services (PostgreSQL, MariaDB on 127.0.0.1) and which fixed
 * ports they open (JGroups). By default: database {@code test}, ports as written in each test. Two
 * checkouts tested at once on one machine keep apart by setting, in the environment (inherited by the
 * forked test JVMs and by the servers the in-container tests start):
 *
 * <ul>
 *   <li>{@code IDEMPOTENCY_TEST_NS}: a suffix for the PostgreSQL database ({@code test_<ns>}, created
 *       when missing) and for every MariaDB database a test creates ({@code <name>_<ns>});
 *   <li>{@code IDEMPOTENCY_TEST_PORT_OFFSET}: added to every fixed port a test opens.
 * </ul>
 */
public final class TestServices {

    /** The namespace suffix, or empty. */
    public static final String NAMESPACE = env("IDEMPOTENCY_TEST_NS", "");

    /** Added to every fixed port. */
    public static final int PORT_OFFSET = Integer.parseInt(env("IDEMPOTENCY_TEST_PORT_OFFSET", "0"));

    /** The PostgreSQL database of the tests. */
    public static final String PG_DATABASE = NAMESPACE.isEmpty() ? "test" : "test_" + NAMESPACE;

    private static final String PG_SERVER = "jdbc:postgresql://127.0.0.1:5432/";

    private static volatile boolean pgDatabaseChecked;

    private TestServices() {}

    /** A fixed port of a test, moved by {@code IDEMPOTENCY_TEST_PORT_OFFSET}. */
    public static int port(int base) {
        return base + PORT_OFFSET;
    }

    /** The JDBC URL of the tests' PostgreSQL database (created when missing). */
    public static String postgresUrl() {
        ensurePostgresDatabase();
        return PG_SERVER + PG_DATABASE;
    }

    /** The JDBC URL of a schema in the tests' PostgreSQL database (the schema is not created). */
    public static String postgresUrl(String schema) {
        return postgresUrl() + "?currentSchema=" + schema;
    }

    /** The MariaDB database name for a test's {@code base} name. */
    public static String mariadbDatabase(String base) {
        return NAMESPACE.isEmpty() ? base : base + "_" + NAMESPACE;
    }

    private static void ensurePostgresDatabase() {
        if (pgDatabaseChecked || NAMESPACE.isEmpty()) {
            return;
        }
        synchronized (TestServices.class) {
            if (pgDatabaseChecked) {
                return;
            }
            try (Connection c = DriverManager.getConnection(PG_SERVER + "postgres", "postgres", "");
                    PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                ps.setString(1, PG_DATABASE);
                boolean exists;
                try (ResultSet rs = ps.executeQuery()) {
                    exists = rs.next();
                }
                if (!exists) {
                    try (Statement s = c.createStatement()) {
                        s.execute("CREATE DATABASE " + PG_DATABASE);
                    } catch (SQLException raced) {
                        // Another test JVM created it meanwhile ("42P04" duplicate database): fine.
                        if (!"42P04".equals(raced.getSQLState()) && !"23505".equals(raced.getSQLState())) {
                            throw raced;
                        }
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "The tests need PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth): " + e, e);
            }
            pgDatabaseChecked = true;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v.strip();
    }
}
