/**
 * Internal, no compatibility promise: the engine that every entry point (CDI interceptor, JAX-RS
 * filter, message deduplicator) runs, the per-operation policy and plan, key reading, outcome encoding
 * and the parsed global settings. Free of container APIs: it depends only on the API and SPI packages
 * (and JSON-P/JSON-B for outcomes). The record state machine it runs, {@link
 * dev.idempotency.spi.RecordLifecycle}, lives in the SPI, since every store decides with it too.
 */
package dev.idempotency.internal.core;
