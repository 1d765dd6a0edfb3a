package dev.idempotency.ops.inspection;

import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Registers {@link InspectionResource} in every JAX-RS application of the deployment. Listed in {@code
 * META-INF/services/jakarta.ws.rs.core.Feature}. The resource answers 404 unless {@code
 * idempotency.inspection.http.enabled=true}, so a deployment that did not ask for it exposes nothing.
 */
public final class InspectionFeature implements Feature {

    /** Creates the feature; the JAX-RS runtime does this through {@link java.util.ServiceLoader}. */
    public InspectionFeature() {}

    @Override
    public boolean configure(FeatureContext context) {
        if (!context.getConfiguration().isRegistered(InspectionResource.class)) {
            context.register(InspectionResource.class);
        }
        return true;
    }
}
