/**
 * The MicroProfile OpenAPI filter that documents the Idempotency-Key contract of every guarded
 * resource method. API: {@link dev.idempotency.ops.openapi.IdempotencyOasFilter}.
 */
package dev.idempotency.ops.openapi;
