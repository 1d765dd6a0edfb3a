/**
 * A MicroProfile Health readiness check of the configured store, registered only where MicroProfile
 * Health is present. Internal.
 */
package dev.idempotency.ops.health;
