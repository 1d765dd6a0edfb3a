/**
 * Internal, no compatibility promise: the Infinispan store, an implementation of the SPI chosen with
 * {@code idempotency.store=infinispan}. Its configuration keys and behaviour are documented in
 * docs/infinispan-store.md; its classes are not API.
 */
package dev.idempotency.internal.stores.infinispan;
