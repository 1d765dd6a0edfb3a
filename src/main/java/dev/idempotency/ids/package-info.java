/**
 * API: {@link dev.idempotency.ids.SnowflakeIds}, time-ordered 64-bit ids unique across nodes without
 * coordination. {@link dev.idempotency.ids.IdSettings} is internal.
 */
package dev.idempotency.ids;
