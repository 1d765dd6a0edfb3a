package dev.idempotency.internal.core;

/** Why a claimed key was given back (released) instead of completed. */
public enum ReleaseCause {
    /** The operation threw an exception that releases the key (unchecked, or listed in {@code releaseOn}). */
    EXCEPTION,
    /** The transaction the operation ran in rolled back. */
    ROLLBACK,
    /** The HTTP response had a status that releases the key (5xx, or one of {@code idempotency.http.release-statuses}). */
    STATUS,
    /** An operator released a stuck IN_PROGRESS claim. */
    OPERATOR,
    /** Another reason, reported by an entry point that does not say which. */
    OTHER
}
