package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.spi.StorePrimitive;

/**
 * Publishes the metrics into one metrics facility of the server. Implementations reference that
 * facility's API and are loaded only once it is known to be present.
 */
interface MetricsBridge {

    /**
     * Called once per operation: returns the handle that counts its events in the facility, or {@link
     * OperationEvents#NONE} when the facility reads {@link OperationCounters} itself when it collects.
     */
    OperationEvents operation(OperationCounters counters);

    /** One store call finished. */
    void storeCall(StorePrimitive primitive, long nanos, boolean failed);

    /** Removes what this bridge registered (on undeploy). */
    default void close() {}
}
