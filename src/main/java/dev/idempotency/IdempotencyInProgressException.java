package dev.idempotency;

import java.time.Duration;

/** Another call with the same key is still running, and this call may not (or did not) wait for it. */
public class IdempotencyInProgressException extends IdempotencyException {

    private final Duration retryAfter;

    /**
     * @param operation the operation name
     * @param keyHash short hash of the key
     * @param retryAfter when a retry makes sense: a short hint ({@code idempotency.retry-after}),
     *     never more than the running call's remaining lease (never negative)
     */
    public IdempotencyInProgressException(String operation, String keyHash, Duration retryAfter) {
        super(
                operation,
                keyHash,
                "Operation '" + operation + "' is already running for key #" + keyHash + "; retry in about "
                        + seconds(retryAfter)
                        + " s (a retry after it completes gets its outcome), or set onInProgress = WAIT to wait for"
                        + " its outcome.",
                null);
        this.retryAfter = retryAfter;
    }

    /**
     * How long to wait before retrying: the short hint {@code idempotency.retry-after} (default 1 s),
     * never more than the running call's remaining lease. The HTTP layer sends it as {@code
     * Retry-After}. A retry after the running call completed gets its outcome; a retry before gets
     * this exception again.
     */
    public Duration retryAfter() {
        return retryAfter;
    }

    private static long seconds(Duration d) {
        // Whole seconds, rounded up and at least 1, as the HTTP layer's Retry-After says.
        return Math.max(1, d.getSeconds() + (d.getNano() > 0 ? 1 : 0));
    }
}
