package dev.idempotency.examples.shop;

import dev.idempotency.IdempotencyException;
import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import jakarta.json.Json;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Maps the exceptions of guarded CDI beans (not resources: the {@code Idempotency-Key} filter answers
 * those itself) to the statuses the HTTP filter uses, so a caller of the payment callback sees the
 * same problem documents as a caller of the order endpoint.
 */
@Provider
public class IdempotencyExceptionMapper implements ExceptionMapper<IdempotencyException> {

    @Override
    public Response toResponse(IdempotencyException e) {
        int status;
        String title;
        if (e instanceof IdempotencyKeyMismatchException) {
            status = 422;
            title = "Key reused with different content";
        } else if (e instanceof IdempotencyInProgressException) {
            status = 409;
            title = "Still in progress";
        } else if (e instanceof IdempotencyKeyMissingException) {
            status = 400;
            title = "Key missing";
        } else if (e instanceof IdempotencyStoreUnavailableException) {
            status = 503;
            title = "Try again later";
        } else {
            status = 500;
            title = "Idempotency failure";
        }
        // The library's messages name the operation and a key hash, never the key or the payload.
        String body = Json.createObjectBuilder()
                .add("type", "urn:shop:problem:" + e.getClass().getSimpleName())
                .add("title", title)
                .add("status", status)
                .add("detail", String.valueOf(e.getMessage()))
                .build()
                .toString();
        Response.ResponseBuilder r =
                Response.status(status, title).type("application/problem+json").entity(body);
        if (e instanceof IdempotencyInProgressException inProgress && inProgress.retryAfter() != null) {
            r.header("Retry-After", Math.max(1, inProgress.retryAfter().toSeconds()));
        } else if (status == 503) {
            r.header("Retry-After", 5);
        }
        return r.build();
    }
}
