/**
 * Internal, no compatibility promise: the JPA store, an implementation of the SPI chosen with
 * {@code idempotency.store=jpa}. Its configuration keys and behaviour are documented in
 * docs/jpa-store.md; its classes are not API, except {@link
 * dev.idempotency.stores.jpa.IdempotencyRecordEntity}, the read-only mapping of its table for an
 * application's JPA queries (docs/jpa-store.md, "Querying the records with JPA").
 */
package dev.idempotency.stores.jpa;
