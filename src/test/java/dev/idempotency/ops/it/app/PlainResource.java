package dev.idempotency.ops.it.app;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** An unguarded resource: the OpenAPI document must show no idempotency contract on it. */
@Path("plain")
public class PlainResource {

    @POST
    public String echo(String body) {
        return body;
    }
}
