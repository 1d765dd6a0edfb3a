package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The application's answers to the failures of {@link RollbackWork}: its own statuses and texts. */
public final class RollbackMappers {

    private RollbackMappers() {}

    /** A duplicate row on flush: 409, which gives the key back. */
    @Provider
    public static class Duplicate implements ExceptionMapper<PersistenceException> {
        @Override
        public Response toResponse(PersistenceException e) {
            return Response.status(409)
                    .type("text/plain")
                    .entity("duplicate order row")
                    .build();
        }
    }

    /** The nested step failed: 500 with the application's text. */
    @Provider
    public static class Nested implements ExceptionMapper<NestedFailure> {
        @Override
        public Response toResponse(NestedFailure e) {
            return Response.status(500)
                    .type("text/plain")
                    .entity("nested step failed")
                    .build();
        }
    }
}
