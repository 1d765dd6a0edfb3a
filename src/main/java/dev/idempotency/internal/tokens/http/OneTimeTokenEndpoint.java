package dev.idempotency.internal.tokens.http;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.tokens.IssueBudget;
import dev.idempotency.tokens.IssuedToken;
import dev.idempotency.tokens.OneTimeTokens;
import dev.idempotency.tokens.TokenSettings;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code POST <application path>/idempotency/tokens}: issues a one-time token to the caller (its
 * owner by {@code idempotency.tokens.owner}), valid for {@code idempotency.tokens.ttl}. Answers
 * {@code 201} with {@code {"token": ..., "expiresAt": ..., "header": ...}} and {@code Cache-Control:
 * no-store}. Answers 404 unless {@code idempotency.tokens.endpoint.enabled=true}: a server that
 * discovers this class by scanning must not hand out tokens nobody asked for.
 */
@Path(OneTimeTokenEndpoint.PATH)
public class OneTimeTokenEndpoint {

    /** The endpoint's path below the application path. */
    public static final String PATH = "idempotency/tokens";

    /** Created by the JAX-RS runtime. */
    public OneTimeTokenEndpoint() {}

    /**
     * Issues a token.
     *
     * @param security the caller, for the principal owner rule
     * @param headers the request headers, for the header owner rule
     */
    @POST
    public Response issue(@Context SecurityContext security, @Context HttpHeaders headers) {
        TokenSettings settings = OneTimeTokenFeature.bean(TokenSettings.class, null);
        if (!settings.endpointEnabled()) {
            return TokenProblems.tokenEndpointDisabled();
        }
        OneTimeTokenOwner owner = OneTimeTokenOwner.of(settings.owner());
        String who = owner.of(security, headers::getHeaderString);
        if (who == null) {
            return TokenProblems.tokenOwnerMissing(owner.header());
        }
        java.util.Optional<java.time.Duration> full =
                OneTimeTokenFeature.bean(IssueBudget.class, null).take(who);
        if (full.isPresent()) {
            return TokenProblems.tokenIssueLimited(full.get());
        }
        IssuedToken t;
        try {
            t = OneTimeTokenFeature.bean(OneTimeTokens.class, null).issue(who, settings.ttl());
        } catch (IdempotencyStoreUnavailableException e) {
            return TokenProblems.tokenStoreUnavailable();
        }
        CacheControl noStore = new CacheControl();
        noStore.setNoStore(true);
        noStore.setNoTransform(false);
        String body = Json.createObjectBuilder()
                .add("token", t.token())
                .add("expiresAt", t.expiresAt().toString())
                .add("header", settings.header())
                .build()
                .toString();
        return Response.status(201)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .cacheControl(noStore)
                .entity(body)
                .build();
    }
}
