/**
 * Internal, no compatibility promise (the operations API is in the subpackages: {@code
 * metrics.IdempotencyMetrics} and its snapshots, {@code inspection.RecordInspector} and its results,
 * {@code openapi.IdempotencyOasFilter}): what the operations tooling shares. Metrics ({@code metrics}),
 * an MP Health readiness check ({@code health}), record inspection and repair ({@code inspection}) and
 * the OpenAPI filter ({@code openapi}). Every integration with a server facility (MicroProfile
 * Metrics, OpenTelemetry, MicroProfile Health, MicroProfile OpenAPI) is optional: it is used where the
 * server has it, and a deployment without it works. JMX is always there. The reference is
 * docs/operations.md.
 */
package dev.idempotency.internal.ops;
