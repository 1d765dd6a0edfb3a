package dev.idempotency.internal.tokens.http;

import dev.idempotency.internal.jaxrs.Problems;
import dev.idempotency.tokens.TokenCheck;
import jakarta.ws.rs.core.Response;

/** The problem+json answers of the one-time token filter and endpoint ({@link Problems}' form). */
final class TokenProblems {

    private TokenProblems() {}

    /**
     * A refused one-time token: 400 missing or unknown, 403 foreign, 409 used, 410 expired.
     *
     * @param check why the token was refused (never {@code CONSUMED})
     * @param header the token header's name
     */
    static Response tokenRefused(TokenCheck check, String header) {
        return switch (check) {
            case MISSING -> Problems.problem(
                    400,
                    "token-missing",
                    "One-time token required",
                    "This operation requires a one-time token in the " + header
                            + " header; get one from the token endpoint first and send it once.",
                    null);
            case UNKNOWN -> Problems.problem(
                    400,
                    "token-unknown",
                    "Unknown one-time token",
                    "The " + header + " value is not a token this server issued (or its record is gone); get a new"
                            + " token and send it unchanged.",
                    null);
            case FOREIGN -> Problems.problem(
                    403,
                    "token-foreign",
                    "One-time token issued to someone else",
                    "The " + header + " value was issued to another user or session; get a token of your own.",
                    null);
            case USED -> Problems.problem(
                    409,
                    "token-used",
                    "One-time token already used",
                    "The " + header + " value was already used, so this request was not processed again; get a new"
                            + " token for a new request.",
                    null);
            case EXPIRED -> Problems.problem(
                    410,
                    "token-expired",
                    "One-time token expired",
                    "The " + header + " value expired before it was used; get a new token and send it sooner"
                            + " (lifetime: idempotency.tokens.ttl).",
                    null);
            case CONSUMED -> throw new IllegalArgumentException("a consumed token is not refused");
        };
    }

    /** The endpoint issued as many tokens as its bounds allow within a token's lifetime. */
    static Response tokenIssueLimited(java.time.Duration retryAfter) {
        return Problems.problem(
                429,
                "token-limit",
                "Too many one-time tokens issued",
                "Too many one-time tokens were issued to this caller (or to all callers) within a token's lifetime;"
                        + " use a token already issued, or retry after the Retry-After delay. Operators: see"
                        + " idempotency.tokens.endpoint.max-per-owner and idempotency.tokens.endpoint.max-total.",
                retryAfter);
    }

    /** The request names no token owner (the {@code idempotency.tokens.owner} header is missing). */
    static Response tokenOwnerMissing(String header) {
        return Problems.problem(
                400,
                "token-owner-missing",
                "One-time token owner missing",
                "One-time tokens belong to the value of the " + header
                        + " header (idempotency.tokens.owner), but the request has none; send it.",
                null);
    }

    /** The store could not be reached while issuing or consuming a token. */
    static Response tokenStoreUnavailable() {
        return Problems.problem(
                503,
                "store-unavailable",
                "Idempotency store unavailable",
                "The idempotency store could not be reached, so the one-time token was neither issued nor"
                        + " consumed; retry after the Retry-After delay. Operators: check the store (idempotency.store).",
                Problems.STORE_RETRY_AFTER);
    }

    /** The token endpoint is disabled. */
    static Response tokenEndpointDisabled() {
        return Problems.problem(
                404,
                "token-endpoint-disabled",
                "Token endpoint disabled",
                "This application does not hand out one-time tokens over HTTP; operators can enable it with"
                        + " idempotency.tokens.endpoint.enabled=true.",
                null);
    }
}
