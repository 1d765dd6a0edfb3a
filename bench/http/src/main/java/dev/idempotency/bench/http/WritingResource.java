package dev.idempotency.bench.http;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;

/**
 * A POST that writes one row to PostgreSQL in a JTA transaction, as a payment or order endpoint does:
 * unguarded ({@code plain}), guarded in the JPA store's {@code separate} mode and in its {@code joined}
 * mode ({@code <this class>/joined/Idempotent/transaction=joined}, set by payara.sh for the JPA store).
 */
@ApplicationScoped
@Path("write")
public class WritingResource {

    @Inject
    OrderRows rows;

    /** Creates the table; write.sh calls it once. */
    @PUT
    @Path("table")
    public Response table() throws SQLException {
        rows.createTable();
        return Response.noContent().build();
    }

    /** The floor: the row, no guard. */
    @POST
    @Path("plain")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response plain(String body) throws SQLException {
        rows.insert("-", body);
        return Work.answer(body);
    }

    /** The row once per key; the record in transactions of its own. */
    @POST
    @Path("separate")
    @Idempotent(name = "write-separate", required = true)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response separate(@HeaderParam("Idempotency-Key") String key, String body) throws SQLException {
        rows.insert(key, body);
        return Work.answer(body);
    }

    /** The row once per key; the record in the same transaction as the row. */
    @POST
    @Path("joined")
    @Idempotent(name = "write-joined", required = true)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response joined(@HeaderParam("Idempotency-Key") String key, String body) throws SQLException {
        rows.insert(key, body);
        return Work.answer(body);
    }
}
