package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.lang.System.Logger.Level;

/**
 * Answers an {@link IdempotencyException} that reaches JAX-RS (thrown by an {@code @Idempotent} CDI
 * bean or EJB that a resource calls) with RFC 9457 problem+json instead of a 500 with a stack trace:
 * 409 + Retry-After in progress, 422 arguments mismatch, 400 key missing, 503 + Retry-After store
 * unavailable, 500 for an outcome that cannot be replayed or a configuration error.
 *
 * <p>Registered by {@link IdempotencyExceptionFeature} at a priority below the application's default,
 * so an application's own mapper for these types wins.
 */
public final class IdempotencyExceptionMapper implements ExceptionMapper<IdempotencyException> {

    private static final System.Logger LOG = System.getLogger(IdempotencyExceptionMapper.class.getName());

    @Override
    public Response toResponse(IdempotencyException e) {
        return Problems.of(e);
    }

    /** Logs what a client is not told: configuration errors stay in the server log. */
    static void logHidden(IdempotencyException e) {
        LOG.log(Level.ERROR, "idempotency configuration error answered as 500", e);
    }
}
