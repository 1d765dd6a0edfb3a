package dev.idempotency.it.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The effect of a guarded method: one row in PostgreSQL table {@code beans_it_effect}, written
 * through the server's JTA datasource, so it commits or rolls back with whatever transaction the
 * method's work runs in. The table has no unique constraint: a second execution leaves a second row.
 */
@ApplicationScoped
public class Effects {

    /** The table the test counts rows of. */
    public static final String TABLE = "beans_it_effect";

    /** The JTA datasource the test WAR defines in its web.xml. */
    public static final String DATASOURCE = "java:app/jdbc/effects";

    @Resource(lookup = DATASOURCE)
    DataSource effects;

    @Inject
    ExecutionCounter counter;

    /**
     * Counts one execution for {@code key} and writes its row.
     *
     * @return which execution this is (1 for the first)
     */
    public int write(String key) {
        int run = counter.ran("effect:" + key);
        try (Connection c = effects.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (effect_key) VALUES (?)")) {
            ps.setString(1, key);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("writing the effect row failed: " + e, e);
        }
        return run;
    }

    /** How many times the guarded body ran for {@code key} (rolled back or not). */
    public int executions(String key) {
        return counter.count("effect:" + key);
    }
}
