package demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The app's side effect: one row per execution in {@code helidon_it.effects}, a table without a unique
 * constraint, so a second run of one key shows as a second row.
 */
@ApplicationScoped
public class Effects {

    @Inject
    @ConfigProperty(name = "demo.jdbc.url")
    String url;

    /** Inserts one effect row on a connection of its own (autocommitted). */
    public void record(String kind, String ref, long cents) {
        try (Connection connection = DriverManager.getConnection(url)) {
            insert(connection, kind, ref, cents);
        } catch (SQLException e) {
            throw new IllegalStateException("effect row for " + kind + " " + ref + " not written: " + e, e);
        }
    }

    /** Inserts one effect row on the caller's connection (its transaction, if any). */
    public static void insert(Connection connection, String kind, String ref, long cents) throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO helidon_it.effects (kind, ref, cents) VALUES (?, ?, ?)")) {
            insert.setString(1, kind);
            insert.setString(2, ref);
            insert.setLong(3, cents);
            insert.executeUpdate();
        }
    }
}
