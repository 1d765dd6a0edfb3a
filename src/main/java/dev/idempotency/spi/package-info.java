/**
 * SPI: what a store implements. {@link dev.idempotency.spi.IdempotencyStore} has the primitives
 * (claim, read, complete, release, deleteCompleted, purgeExpired); {@link dev.idempotency.spi.IdempotencyRecord},
 * {@link dev.idempotency.spi.RecordStatus} and {@link dev.idempotency.spi.ClaimResult} are what they
 * exchange. A store decides each primitive with {@link dev.idempotency.spi.RecordLifecycle}, the one
 * record state machine, reads its configuration through {@link dev.idempotency.spi.ConfigLookup}, and
 * must pass the store contract suite. A store package imports nothing of the library beyond this
 * package, the API package and {@code dev.idempotency.internal.stores} (checked by {@code ArchitectureTest}).
 * Compatible changes only.
 */
package dev.idempotency.spi;
