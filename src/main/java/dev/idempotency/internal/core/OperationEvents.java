package dev.idempotency.internal.core;

/**
 * What happened to the calls of one guarded operation: the hook through which operations tooling
 * (metrics, JMX) counts them. {@link IdempotencyEngine} and the entry points report every decision
 * here, once per call; an implementation only counts.
 *
 * <p>An instance belongs to one operation and is obtained once, when the operation is planned ({@link
 * IdempotencyEngine#events}), so a call costs no lookup. Implementations must be thread-safe, fast and
 * must never throw: they run on the path of every guarded call. Every method does nothing by default.
 */
public interface OperationEvents {

    /** Reports nothing: the engine's default when no observer is installed. */
    OperationEvents NONE = new OperationEvents() {};

    /**
     * The call claimed the key and runs the operation.
     *
     * @param tookOver whether its claim replaced an IN_PROGRESS record whose lease had ended (the
     *     previous caller crashed or overran)
     */
    default void executed(boolean tookOver) {}

    /** The call got the stored outcome back; the operation did not run. */
    default void replayed() {}

    /** The call was refused because another call holds the key (HTTP 409). */
    default void refusedInProgress() {}

    /** The call was refused because the key was used with other arguments (HTTP 422). */
    default void mismatched() {}

    /** The call was refused because a required key was missing (HTTP 400). */
    default void keyMissing() {}

    /** The store failed while claiming, so the operation did not run (HTTP 503). */
    default void storeUnavailable() {}

    /** A claim was given back, so that the next call runs again. */
    default void released(ReleaseCause cause) {}

    /**
     * The operation ran but its outcome was not stored.
     *
     * @param storeFailed true if the store failed; false if the key was no longer this call's claim
     *     (its lease ended and another call took it over)
     */
    default void outcomeNotStored(boolean storeFailed) {}
}
