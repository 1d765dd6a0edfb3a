/**
 * API: cluster-wide locks for scheduled jobs, on the configured store. {@link
 * dev.idempotency.lock.ClusterLock} marks a job that runs on one node per window; {@link
 * dev.idempotency.lock.ClusterLocks} takes a named lock in code. {@link
 * dev.idempotency.lock.LockSettings} is internal.
 */
package dev.idempotency.lock;
