package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Produces;

/** A JAX-RS resource interface that declares the guard; {@link TicketsResource} implements it. */
public interface TicketsApi {

    /** Opens a ticket; the response names the run. */
    @POST
    @Consumes("text/plain")
    @Produces("text/plain")
    @Idempotent(required = true)
    String open(String subject);
}
