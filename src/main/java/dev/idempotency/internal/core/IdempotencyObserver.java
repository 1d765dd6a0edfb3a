package dev.idempotency.internal.core;

import dev.idempotency.spi.StorePrimitive;

/**
 * Receives what the engine does: the per-operation events and the latency of every store call. The
 * application's runtime installs at most one (the metrics of {@code dev.idempotency.ops}); without
 * one the engine reports to {@link #NONE} and does not even read the clock.
 *
 * <p>Implementations must be thread-safe and must never throw.
 */
public interface IdempotencyObserver {

    /** Observes nothing. */
    IdempotencyObserver NONE = new IdempotencyObserver() {
        @Override
        public OperationEvents operation(String name) {
            return OperationEvents.NONE;
        }

        @Override
        public boolean timesStoreCalls() {
            return false;
        }

        @Override
        public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {}
    };

    /**
     * The engine that reports here was created on {@code store}; called once, before any other call.
     * Lets the observer name the store and watch its size.
     */
    default void attached(dev.idempotency.spi.IdempotencyStore store) {}

    /**
     * The events of one operation; called once per operation (when it is planned), not per call.
     *
     * @param name the operation name
     */
    OperationEvents operation(String name);

    /**
     * Whether {@link #storeCall} wants to be called; false saves two clock reads per store call. Asked
     * after {@link #attached}, so the answer may depend on the store.
     */
    boolean timesStoreCalls();

    /**
     * One store call finished.
     *
     * @param primitive which primitive
     * @param nanos how long it took
     * @param failed whether it threw
     */
    void storeCall(StorePrimitive primitive, long nanos, boolean failed);
}
