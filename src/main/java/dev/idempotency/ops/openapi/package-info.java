/**
 * API: {@link dev.idempotency.ops.openapi.IdempotencyOasFilter}; the rest is internal, with no
 * compatibility promise. The MicroProfile OpenAPI filter that documents the Idempotency-Key contract
 * of every guarded resource method.
 */
package dev.idempotency.ops.openapi;
