package dev.idempotency.jaxrs;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * RFC 9457 {@code application/problem+json} responses for every way the filter refuses a request.
 * The {@code type} URNs are stable identifiers a client can switch on; the {@code detail} names the
 * problem and the fix, never the key or the payload.
 */
final class Problems {

    /** The media type of every error this module sends. */
    static final String MEDIA_TYPE = "application/problem+json";

    /** Prefix of every problem type this module sends. */
    static final String TYPE_PREFIX = "urn:idempotency-ee:problem:";

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
                "The idempotency store could not be reached, so operation '" + operation
                        + "' did not run; retry with the same key after the Retry-After delay. Operators: check"
                        + " the store (idempotency.store), or set idempotency.http.fail-open=true to run"
                        + " requests unguarded during outages.",
                Duration.ofSeconds(IdempotencyFilter.STORE_RETRY_AFTER_SECONDS));
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
     * A refused one-time token: 400 missing or unknown, 403 foreign, 409 used, 410 expired.
     *
     * @param check why the token was refused (never {@code CONSUMED})
     * @param header the token header's name
     */
    static Response tokenRefused(dev.idempotency.tokens.TokenCheck check, String header) {
        return switch (check) {
            case MISSING -> problem(
                    400,
                    "token-missing",
                    "One-time token required",
                    "This operation requires a one-time token in the " + header
                            + " header; get one from the token endpoint first and send it once.",
                    null);
            case UNKNOWN -> problem(
                    400,
                    "token-unknown",
                    "Unknown one-time token",
                    "The " + header + " value is not a token this server issued (or its record is gone); get a new"
                            + " token and send it unchanged.",
                    null);
            case FOREIGN -> problem(
                    403,
                    "token-foreign",
                    "One-time token issued to someone else",
                    "The " + header + " value was issued to another user or session; get a token of your own.",
                    null);
            case USED -> problem(
                    409,
                    "token-used",
                    "One-time token already used",
                    "The " + header + " value was already used, so this request was not processed again; get a new"
                            + " token for a new request.",
                    null);
            case EXPIRED -> problem(
                    410,
                    "token-expired",
                    "One-time token expired",
                    "The " + header + " value expired before it was used; get a new token and send it sooner"
                            + " (lifetime: idempotency.tokens.ttl).",
                    null);
            case CONSUMED -> throw new IllegalArgumentException("a consumed token is not refused");
        };
    }

    /** The request names no token owner (the {@code idempotency.tokens.owner} header is missing). */
    static Response tokenOwnerMissing(String header) {
        return problem(
                400,
                "token-owner-missing",
                "One-time token owner missing",
                "One-time tokens belong to the value of the " + header
                        + " header (idempotency.tokens.owner), but the request has none; send it.",
                null);
    }

    /** The store could not be reached while issuing or consuming a token. */
    static Response tokenStoreUnavailable() {
        return problem(
                503,
                "store-unavailable",
                "Idempotency store unavailable",
                "The idempotency store could not be reached, so the one-time token was neither issued nor"
                        + " consumed; retry after the Retry-After delay. Operators: check the store (idempotency.store).",
                Duration.ofSeconds(IdempotencyFilter.STORE_RETRY_AFTER_SECONDS));
    }

    /** The token endpoint is disabled. */
    static Response tokenEndpointDisabled() {
        return problem(
                404,
                "token-endpoint-disabled",
                "Token endpoint disabled",
                "This application does not hand out one-time tokens over HTTP; operators can enable it with"
                        + " idempotency.tokens.endpoint.enabled=true.",
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
            return problem(
                    503,
                    "store-unavailable",
                    "Idempotency store unavailable",
                    e.getMessage(),
                    Duration.ofSeconds(IdempotencyFilter.STORE_RETRY_AFTER_SECONDS));
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

    private static Response problem(int status, String slug, String title, String detail, Duration retryAfter) {
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
