package dev.idempotency.bench.quarkus;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The same trivial POST as {@link PlainResource}, guarded by the Idempotency-Key header. */
@ApplicationScoped
@Path("guarded")
public class GuardedResource {

    /**
     * Answers 201 with a small JSON body derived from the request, once per Idempotency-Key.
     *
     * @param body the request body
     * @return 201 with {@code {"ok":true,"length":N}}
     */
    @POST
    @Idempotent(required = true)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        return Work.answer(body);
    }
}
