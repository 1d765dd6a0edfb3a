package dev.idempotency.tokens;

import java.time.Instant;
import java.util.Objects;

/**
 * A token handed to a client.
 *
 * @param token the opaque text the client sends back, once
 * @param expiresAt when the token stops being accepted, on the store's clock
 */
public record IssuedToken(String token, Instant expiresAt) {

    /** Checks the fields. */
    public IssuedToken {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    @Override
    public String toString() {
        // The token is a bearer secret until it is used: never in logs.
        return "IssuedToken[expiresAt=" + expiresAt + "]";
    }
}
