package demo;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.UUID;

/**
 * {@code POST /orders}, as the README's quickstart writes it. The body is JSON-P (the core bundle has no
 * JSON-B of its own); {@code ref} names the order in the effects table, {@code holdMillis} keeps the
 * call running after its effect so that a repeat meets it in progress.
 */
@Path("orders")
@RequestScoped
public class OrdersResource {

    @Inject
    Effects effects;

    @POST
    @Idempotent(required = true)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response place(JsonObject order) throws InterruptedException {
        String ref = order.getString("ref");
        long cents = order.getJsonNumber("cents").longValue();
        effects.record("order", ref, cents);
        long hold = order.containsKey("holdMillis")
                ? order.getJsonNumber("holdMillis").longValue()
                : 0;
        if (hold > 0) {
            Thread.sleep(hold);
        }
        String id = UUID.randomUUID().toString();
        JsonObject created = Json.createObjectBuilder()
                .add("id", id)
                .add("ref", ref)
                .add("cents", cents)
                .build();
        return Response.created(URI.create("orders/" + id)).entity(created).build();
    }
}
