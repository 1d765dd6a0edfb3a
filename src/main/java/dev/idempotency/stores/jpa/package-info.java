/**
 * API: the read-only JPA mapping of the JPA store's table, {@link
 * dev.idempotency.stores.jpa.IdempotencyRecordEntity}, for an application's own queries over the records
 * the store wrote (docs/jpa-store.md, "Querying the records with JPA"). The store itself is internal
 * ({@code dev.idempotency.internal.stores.jpa}).
 */
package dev.idempotency.stores.jpa;
