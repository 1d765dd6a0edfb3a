package dev.idempotency.it.crash.app;

import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * An order endpoint in the JPA store's joined mode: its {@code @Transactional} work joins the
 * transaction the filter began, so the business row and the idempotency record commit together.
 */
@Path("orders")
@RequestScoped
public class CrashOrdersResource {

    /** The operation name. */
    public static final String OPERATION = "crash.orders";

    /** The business table: no unique constraint, so a second execution shows as a second row. */
    public static final String TABLE = "crash_it_order";

    /** The JTA data source the WAR defines in its web.xml. */
    public static final String DATASOURCE = "java:app/jdbc/crash";

    @Resource(lookup = DATASOURCE)
    DataSource ds;

    /** Readiness probe. */
    @GET
    @Produces("text/plain")
    public String ready() {
        return "ready";
    }

    /** Inserts the order's row, then stops before the commit if asked to. */
    @POST
    @Idempotent(name = OPERATION, lease = "PT10S")
    @Transactional
    @Consumes("text/plain")
    @Produces("text/plain")
    public Response place(String orderId, @HeaderParam("X-Crash") String crash) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (order_id) VALUES (?)")) {
            ps.setString(1, orderId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        if (Crash.BEFORE_COMMIT.equals(crash)) {
            Crash.here(orderId, crash);
        }
        return Response.status(201).entity("placed " + orderId).build();
    }
}
