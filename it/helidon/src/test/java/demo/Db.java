package demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test's view of PostgreSQL (database {@code test}, schema {@code helidon_it}): creates the schema
 * and the effects table before the container boots (so register it before {@code @HelidonTest}), empties
 * them before each test, and counts effect rows.
 */
public final class Db implements BeforeAllCallback, BeforeEachCallback {

    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS helidon_it");
            // no unique constraint: a second run of one key shows as a second row
            s.execute("CREATE TABLE IF NOT EXISTS helidon_it.effects ("
                    + "kind VARCHAR(32) NOT NULL, ref VARCHAR(255) NOT NULL, cents BIGINT NOT NULL,"
                    + " at TIMESTAMPTZ NOT NULL DEFAULT now())");
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws SQLException {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE helidon_it.effects");
            if (exists(c, "idempotency_record")) {
                s.execute("TRUNCATE helidon_it.idempotency_record");
            }
        }
    }

    /** Effect rows of this kind and reference. */
    static int effects(String kind, String ref) {
        try (Connection c = connect();
                PreparedStatement q =
                        c.prepareStatement("SELECT count(*) FROM helidon_it.effects WHERE kind = ? AND ref = ?")) {
            q.setString(1, kind);
            q.setString(2, ref);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count effects in helidon_it.effects: " + e, e);
        }
    }

    /** Rows of the JPA store's table in the test schema. */
    static int records() {
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM helidon_it.idempotency_record")) {
            r.next();
            return r.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count helidon_it.idempotency_record: " + e, e);
        }
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        try (PreparedStatement q = c.prepareStatement(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = 'helidon_it' AND table_name = ?")) {
            q.setString(1, table);
            try (ResultSet r = q.executeQuery()) {
                return r.next();
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL);
    }
}
