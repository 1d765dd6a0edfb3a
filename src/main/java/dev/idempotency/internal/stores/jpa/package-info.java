/**
 * Internal, no compatibility promise: the JPA store, an implementation of the SPI chosen with
 * {@code idempotency.store=jpa}. Its configuration keys and behaviour are documented in
 * docs/jpa-store.md; its classes are not API. The read-only mapping of its table for an application's
 * JPA queries is API, in {@code dev.idempotency.stores.jpa}.
 */
package dev.idempotency.internal.stores.jpa;
