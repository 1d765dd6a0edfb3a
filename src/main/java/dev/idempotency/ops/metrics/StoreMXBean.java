package dev.idempotency.ops.metrics;

import java.util.List;

/** The store over JMX: {@code dev.idempotency:type=Store,application=<app>}. */
public interface StoreMXBean {

    /** The store's class name. */
    String getStore();

    /** The records the memory store holds; -1 on another store. */
    long getMemoryRecords();

    /** Calls, failures and latency of each primitive. */
    List<StoreMetrics> getPrimitives();

    /** Whether calls are counted ({@code idempotency.metrics.enabled}). */
    boolean isMetricsEnabled();
}
