/**
 * Internal, no compatibility promise: the JPA store, an implementation of the SPI chosen with
 * {@code idempotency.store=jpa}. Its configuration keys and behaviour are documented in
 * docs/jpa-store.md; its classes are not API.
 */
package dev.idempotency.stores.jpa;
