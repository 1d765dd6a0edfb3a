package demo;

import dev.idempotency.Idempotent;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;

/** The README's guarded resource, and an unguarded twin that shows the counting works. */
@Path("orders")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {

    @Inject
    Executions executions;

    /** Runs once per Idempotency-Key; a request without one is refused. */
    @POST
    @Idempotent(required = true)
    public Response place(OrderRequest order) throws InterruptedException {
        return created("orders", order);
    }

    /** The same body without {@code @Idempotent}: every request runs it. */
    @POST
    @Path("unguarded")
    public Response placeUnguarded(OrderRequest order) throws InterruptedException {
        return created("unguarded", order);
    }

    private Response created(String kind, OrderRequest order) throws InterruptedException {
        executions.ran(kind, order.ref());
        if (order.holdMillis() > 0) {
            Thread.sleep(order.holdMillis());
        }
        return Response.created(URI.create("orders/" + order.ref()))
                .entity(Map.of("ref", order.ref(), "cents", order.cents()))
                .build();
    }
}
