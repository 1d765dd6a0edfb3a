package dev.idempotency.internal.tokens.http;

import dev.idempotency.internal.jaxrs.ServicePriorities;
import dev.idempotency.tokens.TokenSettings;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Registers {@link OneTimeTokenEndpoint} in applications that list their classes themselves (and so
 * do not get it by scanning), when {@code idempotency.tokens.endpoint.enabled=true}. Listed in {@code
 * META-INF/services/jakarta.ws.rs.core.Feature}.
 */
@Priority(ServicePriorities.ONE_TIME_TOKEN_ENDPOINT_FEATURE) // one value per service: see ServicePriorities
public final class OneTimeTokenEndpointFeature implements Feature {

    /** Creates the feature; the JAX-RS runtime does this through {@link java.util.ServiceLoader}. */
    public OneTimeTokenEndpointFeature() {}

    @Override
    public boolean configure(FeatureContext context) {
        if (context.getConfiguration().isRegistered(OneTimeTokenEndpoint.class)) {
            return true;
        }
        boolean enabled;
        try {
            enabled = OneTimeTokenFeature.bean(TokenSettings.class, null).endpointEnabled();
        } catch (RuntimeException e) {
            // No CDI (or no toolkit) in this JAX-RS application: it cannot use tokens, and must still start.
            return false;
        }
        if (!enabled) {
            return false;
        }
        context.register(OneTimeTokenEndpoint.class);
        return true;
    }
}
