/**
 * Internal, no compatibility promise: the Redis store, an implementation of the SPI chosen with
 * {@code idempotency.store=redis}. Its configuration keys and behaviour are documented in
 * docs/redis-store.md; its classes are not API.
 */
package dev.idempotency.internal.stores.redis;
