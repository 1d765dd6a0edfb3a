/**
 * API: what an application uses. {@link dev.idempotency.Idempotent} and {@link
 * dev.idempotency.IdempotencyKey} mark a guarded method and its key; {@link
 * dev.idempotency.InProgressPolicy} says what a concurrent duplicate gets; the exceptions ({@link
 * dev.idempotency.IdempotencyException} and its subclasses) are what a refused or failed call throws,
 * and what the JAX-RS mapper turns into problem+json. Compatible changes only.
 */
package dev.idempotency;
