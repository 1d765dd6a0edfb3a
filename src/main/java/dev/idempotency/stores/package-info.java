/**
 * Internal, no compatibility promise: what the optional stores (Infinispan, Redis) share to register
 * themselves when their library is on the class path. Each store is chosen with {@code
 * idempotency.store} and configured with its documented keys; its classes are not API.
 */
package dev.idempotency.stores;
