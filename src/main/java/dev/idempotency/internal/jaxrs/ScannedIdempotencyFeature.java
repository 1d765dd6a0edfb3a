package dev.idempotency.internal.jaxrs;

import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

/**
 * {@link IdempotencyFeature} for Quarkus REST, which finds it by its {@code @Provider} (it does not read
 * {@code META-INF/services}); a no-op on every other runtime, which registers the feature from the
 * service file ({@link ScanningRuntime}).
 */
@Provider
public final class ScannedIdempotencyFeature implements DynamicFeature {

    private final IdempotencyFeature feature = new IdempotencyFeature();

    /** Creates the feature; Quarkus REST does this for the {@code @Provider} it found. */
    public ScannedIdempotencyFeature() {}

    @Override
    public void configure(ResourceInfo resourceInfo, FeatureContext context) {
        if (ScanningRuntime.configures(context)) {
            feature.configure(resourceInfo, context);
        }
    }
}
