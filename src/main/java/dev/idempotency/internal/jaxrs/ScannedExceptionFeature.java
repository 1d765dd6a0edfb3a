package dev.idempotency.internal.jaxrs;

import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

/**
 * {@link IdempotencyExceptionFeature} for Quarkus REST, which finds it by its {@code @Provider} (it does
 * not read {@code META-INF/services}); a no-op on every other runtime, which registers the feature from
 * the service file ({@link ScanningRuntime}).
 */
@Provider
public final class ScannedExceptionFeature implements Feature {

    /** Creates the feature; Quarkus REST does this for the {@code @Provider} it found. */
    public ScannedExceptionFeature() {}

    @Override
    public boolean configure(FeatureContext context) {
        return ScanningRuntime.configures(context) && new IdempotencyExceptionFeature().configure(context);
    }
}
