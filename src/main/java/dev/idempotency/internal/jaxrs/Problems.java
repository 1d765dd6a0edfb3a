package dev.idempotency.internal.jaxrs;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * RFC 9457 {@code application/problem+json} responses for every way the filter refuses a request.
 * The {@code type} URNs are stable identifiers a client can switch on; the {@code detail} names the
 * problem and the fix, never the key or the payload. Public for the one-time token glue ({@code
 * dev.idempotency.internal.tokens.http}), whose refusals have the same form.
 */
public final class Problems {

    private static final System.Logger LOG = System.getLogger(Problems.class.getName());

    /** The media type of every error this module sends. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /** Prefix of every problem type this module sends. */
    public static final String TYPE_PREFIX = "urn:idempotency-ee:problem:";

    /** The {@code Retry-After} of a refusal because the store could not be reached. */
    public static final Duration STORE_RETRY_AFTER = Duration.ofSeconds(IdempotencyFilter.STORE_RETRY_AFTER_SECONDS);

    private Problems() {}

    static Response keyInvalid(String detail) {
        return problem(400, "key-invalid", "Invalid idempotency key", detail, null);
    }

    static Response keyMissing(String header, String operation) {
        return problem(
                400,
                "key-missing",
                "Idempotency key required",
                "Operation '" + operation + "' requires the " + header
                        + " header; send a unique value such as a random UUID, and the same value when retrying.",
                null);
    }

    static Response scopeMissing(String detail) {
        return problem(400, "scope-missing", "Idempotency scope missing", detail, null);
    }

    static Response keyMismatch(String header, String operation) {
        return problem(
                422,
                "key-mismatch",
                "Idempotency key reused with a different request",
                "This " + header + " was already used for operation '" + operation
                        + "' with a different method, path, query or body; send a new key for a new request,"
                        + " or repeat the original request exactly to get its response.",
                null);
    }

    static Response inProgress(String header, String operation, Duration retryAfter) {
        return problem(
                409,
                "in-progress",
                "Request with this idempotency key is in progress",
                "A request with this " + header + " for operation '" + operation
                        + "' is still being processed; retry after the Retry-After delay to get its response.",
                retryAfter);
    }

    static Response storeUnavailable(String operation) {
        return problem(
                503,
                "store-unavailable",
                "Idempotency store unavailable",
                storeUnavailableDetail(operation),
                Duration.ofSeconds(IdempotencyFilter.STORE_RETRY_AFTER_SECONDS));
    }

    /** The detail of every 503 store-unavailable: the same whether the filter or a guarded bean refused. */
    static String storeUnavailableDetail(String operation) {
        return "The idempotency store could not be reached, so operation '" + operation
                + "' did not run; retry with the same key after the Retry-After delay. Operators: check"
                + " the store (idempotency.store), or set idempotency.http.fail-open=true to run"
                + " requests unguarded during outages.";
    }

    static Response notStored(String operation, int status, long size, int max) {
        return problem(
                409,
                "response-not-stored",
                "Request already processed; its response cannot be replayed",
                "A request with this key for operation '" + operation + "' was already processed (status " + status
                        + "), but its " + size + "-byte response exceeded idempotency.http.max-stored-body (" + max
                        + " bytes), so it was not stored. The operation is not run again: fetch the result"
                        + " (see Location, if present), or ask the operator to raise idempotency.http.max-stored-body.",
                null);
    }

    static Response notWritten(String operation, int status) {
        return problem(
                409,
                "response-not-replayable",
                "Request already processed; its response cannot be replayed",
                "A request with this key for operation '" + operation + "' was already processed (status " + status
                        + "), but its response could not be written, so there is nothing to replay. The operation is"
                        + " not run again: fetch the result (see Location, if present). Operators: the server log"
                        + " names the serialization failure.",
                null);
    }

    static Response unreadable(String operation) {
        return problem(
                500,
                "stored-response-unreadable",
                "Stored response unreadable",
                "The stored response for this key of operation '" + operation
                        + "' cannot be read (written by an incompatible version, or corrupted); the operation is"
                        + " not run again. Use a new key only if repeating the operation is acceptable.",
                null);
    }

    /**
     * The answer to an idempotency exception thrown by a guarded bean a resource called. Its message
     * names the operation, a hash of the key and the fix, never the key or the arguments, so it is
     * the detail; configuration errors are the exception: logged, and answered without internals.
     */
    static Response of(dev.idempotency.IdempotencyException e) {
        if (e instanceof dev.idempotency.IdempotencyInProgressException p) {
            return problem(409, "in-progress", "Operation in progress", e.getMessage(), p.retryAfter());
        }
        if (e instanceof dev.idempotency.IdempotencyKeyMismatchException) {
            return problem(
                    422, "key-mismatch", "Idempotency key reused with different arguments", e.getMessage(), null);
        }
        if (e instanceof dev.idempotency.IdempotencyKeyMissingException) {
            return problem(400, "key-missing", "Idempotency key required", e.getMessage(), null);
        }
        if (e instanceof dev.idempotency.IdempotencyStoreUnavailableException) {
            // Its message names the store's own failure (a driver's text): for the log, not the client.
            LOG.log(System.Logger.Level.DEBUG, "{0}: answering 503: {1}", e.operation(), e.getMessage());
            return storeUnavailable(e.operation());
        }
        if (e instanceof dev.idempotency.IdempotencyReplayException) {
            return problem(500, "outcome-not-replayable", "Stored outcome cannot be replayed", e.getMessage(), null);
        }
        IdempotencyExceptionMapper.logHidden(e);
        return problem(
                500,
                "configuration",
                "Idempotency misconfigured",
                "The server's idempotency configuration is invalid, so the operation did not run; operators:"
                        + " see the server log.",
                null);
    }

    /**
     * A problem response.
     *
     * @param status the HTTP status
     * @param slug the end of the {@code type} URN (after {@link #TYPE_PREFIX})
     * @param title the short, fixed title
     * @param detail what happened and the fix, without keys, tokens or payloads
     * @param retryAfter the {@code Retry-After} delay, or {@code null} for none
     */
    public static Response problem(int status, String slug, String title, String detail, Duration retryAfter) {
        JsonObjectBuilder body = Json.createObjectBuilder()
                .add("type", TYPE_PREFIX + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail);
        Response.ResponseBuilder b =
                Response.status(status).type(MEDIA_TYPE).entity(body.build().toString());
        if (retryAfter != null) {
            b.header("Retry-After", retryAfterSeconds(retryAfter));
        }
        return b.build();
    }

    /** Whole seconds, rounded up, at least 1: a client must not retry at once. */
    static long retryAfterSeconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Math.max(1, s);
    }
}
