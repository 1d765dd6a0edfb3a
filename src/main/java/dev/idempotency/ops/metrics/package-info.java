/**
 * API: {@link dev.idempotency.ops.metrics.IdempotencyMetrics} and its snapshot records; the rest is
 * internal, with no compatibility promise. Metrics of guarded operations and of the store: counted
 * once here, published through JMX always, and through MicroProfile Metrics, OpenTelemetry and
 * Micrometer where the server or the application has them.
 */
package dev.idempotency.ops.metrics;
