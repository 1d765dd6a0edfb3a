/**
 * Operations: metrics ({@code metrics}), an MP Health readiness check ({@code health}), record
 * inspection and repair ({@code inspection}) and the OpenAPI filter ({@code openapi}). Every
 * integration with a server facility (MicroProfile Metrics, OpenTelemetry, MicroProfile Health,
 * MicroProfile OpenAPI) is optional: it is used where the server has it, and a deployment without it
 * works. JMX is always there. The reference is docs/operations.md.
 *
 * <p>API: {@code metrics.IdempotencyMetrics} and its snapshots, {@code inspection.RecordInspector}
 * and its results, {@code openapi.IdempotencyOasFilter}. Everything else is internal, with no
 * compatibility promise.
 */
package dev.idempotency.ops;
