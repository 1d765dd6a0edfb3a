package dev.idempotency.it.matrix.app;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * How a guarded method ends once its effect is written, chosen by the request's {@code X-Outcome}
 * header (not part of the fingerprint, so a retry may ask for another outcome).
 */
public enum Outcome {
    /** 201 with a text body naming the run. */
    OK,
    /** An unmapped {@link IllegalStateException}: it rolls a transaction back; the client gets a 500. */
    FATAL,
    /** {@link Declined}, mapped to 402 and listed in {@code dontRollbackOn}: the work commits. */
    DECLINED,
    /** 201 with an entity JSON-B cannot write: the method returned, its response fails afterwards. */
    UNWRITABLE,
    /**
     * A {@code BadRequestException} (400, with a body), as input validation throws: not in {@code
     * dontRollbackOn}, so a transaction of the method rolls back, yet the 400 is a kept status.
     */
    REJECTED;

    /** The header's outcome; OK when absent. */
    public static Outcome of(String header) {
        return header == null || header.isBlank() ? OK : valueOf(header.trim());
    }

    /** Ends the method as this outcome says. */
    public Response finish(String id, int run) {
        return switch (this) {
            case OK -> Response.status(201)
                    .type(MediaType.TEXT_PLAIN)
                    .entity("charged " + id + " run " + run)
                    .build();
            case FATAL -> throw new IllegalStateException("the charge of " + id + " failed after its effect");
            case DECLINED -> throw new Declined(id);
            case REJECTED -> throw new jakarta.ws.rs.BadRequestException(Response.status(400)
                    .type(MediaType.TEXT_PLAIN)
                    .entity("rejected " + id + " run " + run)
                    .build());
            case UNWRITABLE -> Response.status(201)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(new Unwritable())
                    .build();
        };
    }

    /** Sleeps, so that duplicates overlap the first call. */
    public static void pause(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An entity JSON-B cannot write (as a lazy relation that is not loaded). */
    public static class Unwritable {
        /** Always throws. */
        public String getAmount() {
            throw new IllegalStateException("lazy relation not loaded");
        }
    }
}
