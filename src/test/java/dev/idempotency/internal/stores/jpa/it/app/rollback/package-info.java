/**
 * The JPA store IT's joined calls whose work marks the caller's transaction for rollback: a flush of
 * a duplicate row, a nested {@code @Transactional} method that throws. Deployed on PostgreSQL only
 * ({@code JpaStorePostgresIT}), with a persistence unit of its own.
 */
package dev.idempotency.internal.stores.jpa.it.app.rollback;
