package dev.idempotency.internal.jaxrs;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Registers {@link IdempotencyExceptionMapper} in every JAX-RS application of a deployment that has
 * this jar. Listed in {@code META-INF/services/jakarta.ws.rs.core.Feature}, so the user registers
 * nothing. Its priority ({@code USER + 1000}) loses to an application mapper of the same type at the
 * default priority.
 */
@Priority(ServicePriorities.EXCEPTION_FEATURE) // one value per service: see ServicePriorities
public final class IdempotencyExceptionFeature implements Feature {

    /** Priority of the mapper: after the application's own mappers. */
    static final int PRIORITY = Priorities.USER + 1000;

    /** Creates the feature; the JAX-RS runtime does this through {@link java.util.ServiceLoader}. */
    public IdempotencyExceptionFeature() {}

    @Override
    public boolean configure(FeatureContext context) {
        if (!context.getConfiguration().isRegistered(IdempotencyExceptionMapper.class)) {
            context.register(IdempotencyExceptionMapper.class, PRIORITY);
        }
        return true;
    }
}
