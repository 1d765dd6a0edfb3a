package dev.idempotency.it;

import dev.idempotency.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Effects counted outside the application: tables in the tests' PostgreSQL database without a unique
 * constraint, so that a second execution shows as a second row, read on connections of the test's own.
 */
public final class EffectRows {

    private EffectRows() {}

    /** Creates a table of effects keyed by {@code column} (with a write time), unless it exists. */
    public static void createTable(String table, String column) throws SQLException {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + table + " (" + column
                    + " VARCHAR(200) NOT NULL, written TIMESTAMP DEFAULT CURRENT_TIMESTAMP)");
        }
    }

    /** Committed rows of {@code table} whose {@code column} is {@code value}. */
    public static int count(String table, String column, String value) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE " + column + " = ?")) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** A connection of the test's own to the tests' PostgreSQL database. */
    public static Connection connect() throws SQLException {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(TestServices.postgresUrl());
        ds.setUser("postgres");
        return ds.getConnection();
    }
}
