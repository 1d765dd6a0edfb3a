package dev.idempotency.it.matrix.app;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Maps {@link Declined} to 402 Payment Required, a 4xx the filter stores and replays. */
@Provider
public class DeclinedMapper implements ExceptionMapper<Declined> {

    @Override
    public Response toResponse(Declined e) {
        return Response.status(402).type("text/plain").entity(e.getMessage()).build();
    }
}
