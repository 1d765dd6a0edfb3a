package dev.idempotency.internal.stores.jpa.it.app.rollback;

import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
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
 * A joined resource method: its {@code @Transactional} work joins the transaction the Idempotency-Key
 * filter began, and its failures reach the client through the application's own mappers ({@link
 * RollbackMappers}).
 */
@Path("rollback-orders")
@RequestScoped
public class RollbackOrdersResource {

    /** The operation name. */
    public static final String OPERATION = "jpa-it.rollback.http";

    @Inject
    RollbackWork work;

    /** The shared work; header {@code X-Ending} names its {@link RollbackWork.Ending}. */
    @POST
    @Idempotent(name = OPERATION, transaction = Participation.JOINED, lease = "PT30S")
    @Transactional
    @Consumes("text/plain")
    @Produces("text/plain")
    public Response place(String orderId, @HeaderParam("X-Ending") String ending) {
        return Response.status(201)
                .entity(work.run(orderId, RollbackWork.Ending.valueOf(ending)))
                .build();
    }
}
