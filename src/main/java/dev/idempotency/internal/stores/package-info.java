/**
 * Internal, no compatibility promise: what the stores share: registering an optional store (Infinispan,
 * Redis) when its library is on the class path, the joined mode's transaction lookup and errors, a
 * base for a store's per-operation view, and a throttle for WARNINGs that come in bursts.
 * The one place where a store reaches the library's global settings. Each store is chosen with {@code
 * idempotency.store} and configured with its documented keys; its classes are not API.
 */
package dev.idempotency.internal.stores;
