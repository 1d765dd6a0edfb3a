package dev.idempotency.it.matrix.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * The effect of a guarded resource method: one row in PostgreSQL table {@value #TABLE}, written through
 * the server's JTA data source, so it commits or rolls back with whatever transaction the method's work
 * runs in (none: it commits at once). The table has no unique constraint, so a second execution leaves a
 * second row. Executions are also counted in memory, rolled back or not.
 */
@ApplicationScoped
public class MatrixEffects {

    /** The table the test counts rows of. */
    public static final String TABLE = "http_matrix_effect";

    /** The JTA data source the test WAR defines in its web.xml. */
    public static final String DATASOURCE = "java:app/jdbc/effects";

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    @Resource(lookup = DATASOURCE)
    DataSource effects;

    /**
     * Counts one execution of {@code id} and writes its row in the thread's transaction, if any.
     *
     * @return which execution this is (1 for the first)
     */
    public int write(String id) {
        int run = runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        try (Connection c = effects.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (effect_key) VALUES (?)")) {
            ps.setString(1, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("writing the effect row failed: " + e, e);
        }
        return run;
    }

    /**
     * The body of a synchronous matrix method: writes the effect, waits {@code pauseMillis}, and ends
     * as {@code outcome} (the {@code X-Outcome} header) says.
     */
    public jakarta.ws.rs.core.Response charge(String id, String outcome, long pauseMillis) {
        int run = write(id);
        Outcome.pause(pauseMillis);
        return Outcome.of(outcome).finish(id, run);
    }

    /** How many times a guarded body ran for {@code id}. */
    public int executions(String id) {
        AtomicInteger n = runs.get(id);
        return n == null ? 0 : n.get();
    }
}
