package dev.idempotency.internal.core;

import dev.idempotency.spi.ConfigLookup;

/**
 * What an entry point other than the CDI interceptor (the JAX-RS filter, the operations tooling)
 * needs from the application's idempotency runtime, without depending on how that runtime is built.
 * The CDI runtime offers it as an application-scoped bean of this type.
 */
public interface EntryPointServices {

    /** The application's engine, on the configured store. */
    IdempotencyEngine engine();

    /** The configuration the runtime reads. */
    ConfigLookup settings();

    /** The policy resolver over {@link #settings()}. */
    PolicyResolver policies();
}
