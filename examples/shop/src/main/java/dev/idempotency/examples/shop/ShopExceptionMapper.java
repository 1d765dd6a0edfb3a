package dev.idempotency.examples.shop;

import jakarta.json.Json;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Turns the shop's business refusals into RFC 9457 problem documents. */
@Provider
public class ShopExceptionMapper implements ExceptionMapper<ShopException> {

    @Override
    public Response toResponse(ShopException e) {
        String body = Json.createObjectBuilder()
                .add("type", "urn:shop:problem:" + e.getClass().getSimpleName())
                .add("title", e.title())
                .add("status", e.status())
                .add("detail", String.valueOf(e.getMessage()))
                .build()
                .toString();
        return Response.status(e.status(), e.title())
                .type("application/problem+json")
                .entity(body)
                .build();
    }
}
