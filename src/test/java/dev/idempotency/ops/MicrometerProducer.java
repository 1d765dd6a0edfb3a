package dev.idempotency.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The {@code MeterRegistry} bean Quarkus's Micrometer extension provides, here a real {@link SimpleMeterRegistry}. */
@ApplicationScoped
public class MicrometerProducer {

    /** The registry the next container gets: each test sets a fresh one. */
    static volatile SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Produces
    @Singleton
    MeterRegistry meterRegistry() {
        return registry;
    }
}
