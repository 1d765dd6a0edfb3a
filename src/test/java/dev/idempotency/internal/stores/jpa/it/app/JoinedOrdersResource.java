package dev.idempotency.internal.stores.jpa.it.app;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/**
 * A JAX-RS resource whose operation uses the joined mode: its {@code @Transactional} work joins the
 * transaction the Idempotency-Key filter began, so the business row and the record commit together.
 */
@Path("joined-orders")
@RequestScoped
public class JoinedOrdersResource {

    /** The operation name, as configured in microprofile-config.properties. */
    public static final String OPERATION = "jpa-it.http.joined";

    @Inject
    BusinessRows rows;

    /** Inserts a business row, waits so that duplicates overlap, then fails (unmapped) if asked to. */
    @POST
    @Idempotent(name = OPERATION, lease = "PT30S")
    @Transactional
    @Consumes("text/plain")
    @Produces("text/plain")
    public Response place(String orderId, @HeaderParam("X-Fail") String fail) {
        rows.insert(orderId);
        Pause.millis(200);
        if ("true".equals(fail)) {
            throw new IllegalStateException("payment declined for the test");
        }
        return Response.status(201).entity("placed " + orderId).build();
    }
}
