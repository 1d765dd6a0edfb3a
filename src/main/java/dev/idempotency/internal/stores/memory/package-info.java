/**
 * Internal, no compatibility promise: the memory store, the default ({@code idempotency.store=memory}):
 * one JVM's records, for a single node and for tests. Its keys are in docs/configuration.md;
 * its classes are not API.
 */
package dev.idempotency.internal.stores.memory;
