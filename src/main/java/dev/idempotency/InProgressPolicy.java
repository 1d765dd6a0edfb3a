package dev.idempotency;

/** What a call does when another call with the same key is still running. */
public enum InProgressPolicy {
    /** Fail at once with {@link IdempotencyInProgressException} (HTTP: 409 with Retry-After). */
    REJECT,
    /**
     * Wait up to the lease for the running call's outcome and replay it; fail with {@link
     * IdempotencyInProgressException} if it does not come in time. If the running call releases the
     * key (it failed with a releasing exception), the waiting call claims the key and runs itself.
     */
    WAIT
}
