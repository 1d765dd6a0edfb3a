/**
 * Internal, no compatibility promise: a MicroProfile Health readiness check of the configured store,
 * registered only where MicroProfile Health is present (docs/operations.md).
 */
package dev.idempotency.internal.ops.health;
