package dev.idempotency.it.fault.app;

import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A settlement whose effect is a row in PostgreSQL, written on a data source of its own (straight to
 * the database, autocommitted: durable when the INSERT returns), while the idempotency records live on
 * another data source that the test's TCP proxy can cut. After the effect the resource waits {@code
 * pause} ms, the window in which the test cuts the store's connections: the business commit happened,
 * the outcome is not stored yet.
 */
@Path("settlements")
@RequestScoped
public class SettlementsResource {

    /** The table of effects: no unique constraint, so a second run leaves a second row. */
    public static final String TABLE = "fault_it_effect";

    /** The effects' data source, straight to PostgreSQL. */
    public static final String EFFECTS = "java:app/jdbc/fault-effects";

    /** The store's data source, through the test's TCP proxy. */
    public static final String STORE = "java:app/jdbc/fault-store";

    @Resource(lookup = EFFECTS)
    DataSource effects;

    @POST
    @Path("{id}")
    @Idempotent(required = true)
    public Response settle(@PathParam("id") String id, @QueryParam("pause") long pause) throws SQLException {
        try (Connection c = effects.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (effect_key) VALUES (?)")) {
            ps.setString(1, id);
            ps.executeUpdate();
        }
        if (pause > 0) {
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Response.created(URI.create("settlements/" + id))
                .entity("settled " + id + " at " + System.nanoTime())
                .type("text/plain")
                .build();
    }
}
