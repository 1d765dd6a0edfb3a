package dev.idempotency.internal.tokens.http;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.jaxrs.ServicePriorities;
import dev.idempotency.tokens.OneTimeTokens;
import dev.idempotency.tokens.RequiresOneTimeToken;
import dev.idempotency.tokens.TokenSettings;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.reflect.Method;

/**
 * Binds the one-time token filter to every resource method marked {@link RequiresOneTimeToken} (on
 * the method or its class). Listed in {@code META-INF/services/jakarta.ws.rs.container.DynamicFeature}
 * like the Idempotency-Key filter, so the application registers nothing.
 *
 * <p>The filter runs at {@code Priorities.USER + 10}: after authentication (the owner is the
 * principal by default) and after the Idempotency-Key filter, so that a retry with the same
 * Idempotency-Key replays the first response instead of being refused for its used token.
 */
@Priority(ServicePriorities.ONE_TIME_TOKEN_FEATURE) // one value per service: see ServicePriorities
public final class OneTimeTokenFeature implements DynamicFeature {

    /** Creates the feature; the JAX-RS runtime does this through {@link java.util.ServiceLoader}. */
    public OneTimeTokenFeature() {}

    @Override
    public void configure(ResourceInfo resourceInfo, FeatureContext context) {
        Method method = resourceInfo.getResourceMethod();
        Class<?> cls = resourceInfo.getResourceClass();
        if (method == null || cls == null) {
            return;
        }
        if (!method.isAnnotationPresent(RequiresOneTimeToken.class) && !requiredByClass(cls)) {
            return;
        }
        TokenSettings settings = bean(TokenSettings.class, method);
        context.register(
                new OneTimeTokenFilter(
                        bean(OneTimeTokens.class, method), settings.header(), OneTimeTokenOwner.of(settings.owner())),
                Priorities.USER + 10);
    }

    private static boolean requiredByClass(Class<?> cls) {
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(RequiresOneTimeToken.class)) {
                return true;
            }
        }
        return false;
    }

    /** The toolkit's {@link OneTimeTokens} or {@link TokenSettings}, from CDI. */
    static <T> T bean(Class<T> type, Method method) {
        try {
            return CDI.current().select(type).get();
        } catch (RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "One-time tokens"
                            + (method == null
                                    ? ""
                                    : " on " + method.getDeclaringClass().getName() + "#" + method.getName())
                            + " need CDI, but no CDI container is available to this JAX-RS application (" + e
                            + "); deploy it in a Jakarta EE or MicroProfile server with CDI enabled.",
                    e);
        }
    }
}
