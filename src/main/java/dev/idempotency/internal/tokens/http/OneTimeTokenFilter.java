package dev.idempotency.internal.tokens.http;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.tokens.OneTimeTokens;
import dev.idempotency.tokens.TokenCheck;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;

/**
 * Consumes the request's one-time token before a {@link dev.idempotency.tokens.RequiresOneTimeToken}
 * method runs; refuses the request with a problem+json that says why, otherwise.
 */
final class OneTimeTokenFilter implements ContainerRequestFilter {

    private final OneTimeTokens tokens;
    private final String header;
    private final OneTimeTokenOwner owner;

    OneTimeTokenFilter(OneTimeTokens tokens, String header, OneTimeTokenOwner owner) {
        this.tokens = tokens;
        this.header = header;
        this.owner = owner;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String who = owner.of(request);
        if (who == null) {
            request.abortWith(TokenProblems.tokenOwnerMissing(owner.header()));
            return;
        }
        TokenCheck check;
        try {
            check = tokens.consume(request.getHeaderString(header), who);
        } catch (IdempotencyStoreUnavailableException e) {
            request.abortWith(TokenProblems.tokenStoreUnavailable());
            return;
        }
        if (!check.accepted()) {
            request.abortWith(TokenProblems.tokenRefused(check, header));
        }
    }
}
