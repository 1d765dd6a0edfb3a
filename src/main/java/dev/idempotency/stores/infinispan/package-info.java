/**
 * API: the JGroups hook that a cluster node's own stack names, {@link
 * dev.idempotency.stores.infinispan.RaftForkHook} (docs/infinispan-store.md). The store itself is
 * internal ({@code dev.idempotency.internal.stores.infinispan}).
 */
package dev.idempotency.stores.infinispan;
