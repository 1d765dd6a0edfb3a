package dev.idempotency.it.redis.app;

import dev.idempotency.Idempotent;
import dev.idempotency.it.app.ExecutionCounter;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/** A charge guarded over HTTP; each real run is counted per request body. */
@RequestScoped
@Path("charges")
public class ChargesResource {

    @Inject
    ExecutionCounter counter;

    /** Charges: 201 with a body unique per run. */
    @POST
    @Idempotent(required = true)
    @Consumes("text/plain")
    @Produces("application/json")
    public Response charge(String body) {
        int run = counter.ran("http:" + body);
        return Response.status(201)
                .entity("{\"charge\":\"" + body + "\",\"run\":" + run + ",\"nonce\":" + System.nanoTime() + "}")
                .build();
    }

    /** How often the charge of {@code body} really ran. */
    @GET
    @Path("runs/{body}")
    @Produces("text/plain")
    public String runs(@PathParam("body") String body) {
        return String.valueOf(counter.count("http:" + body));
    }
}
