package dev.idempotency.ops.metrics;

/**
 * The calls of one store primitive since the application started.
 *
 * @param primitive {@code claim}, {@code read}, {@code complete}, {@code release} or {@code delete}
 * @param calls how many calls finished
 * @param failures how many of them threw
 * @param meanNanos their mean duration, in nanoseconds
 * @param maxNanos the longest, in nanoseconds
 */
public record StoreMetrics(String primitive, long calls, long failures, long meanNanos, long maxNanos) {}
