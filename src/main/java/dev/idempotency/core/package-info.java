/**
 * Internal, no compatibility promise: the engine that every entry point (CDI interceptor, JAX-RS
 * filter, message deduplicator) runs, the per-operation policy and plan, key reading, outcome encoding
 * and the configuration lookup. Free of container APIs: it depends only on the API and SPI packages.
 * Exception: {@link dev.idempotency.core.RecordLifecycle}, which store implementers use with the SPI.
 */
package dev.idempotency.core;
