package dev.idempotency.bench.quarkus;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The floor: the same trivial POST as {@link GuardedResource}, without idempotency. */
@ApplicationScoped
@Path("plain")
public class PlainResource {

    /**
     * Answers 201 with a small JSON body derived from the request.
     *
     * @param body the request body
     * @return 201 with {@code {"ok":true,"length":N}}
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        return Work.answer(body);
    }
}
