/**
 * SPI: what a store implements. {@link dev.idempotency.spi.IdempotencyStore} has the primitives
 * (claim, read, complete, release, deleteCompleted, purgeExpired); {@link dev.idempotency.spi.IdempotencyRecord},
 * {@link dev.idempotency.spi.RecordStatus} and {@link dev.idempotency.spi.ClaimResult} are what they
 * exchange. A store decides each primitive with {@link dev.idempotency.core.RecordLifecycle}, the one
 * record state machine, and must pass the store contract suite. Compatible changes only.
 */
package dev.idempotency.spi;
