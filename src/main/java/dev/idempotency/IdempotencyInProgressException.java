package dev.idempotency;

import java.time.Duration;

/** Another call with the same key is still running, and this call may not (or did not) wait for it. */
public class IdempotencyInProgressException extends IdempotencyException {

    private final Duration retryAfter;

    /**
     * @param operation the operation name
     * @param keyHash short hash of the key
     * @param retryAfter how long until the running call's lease ends (never negative)
     */
    public IdempotencyInProgressException(String operation, String keyHash, Duration retryAfter) {
        super(
                operation,
                keyHash,
                "Operation '" + operation + "' is already running for key #" + keyHash
                        + "; retry after it completes (at most " + retryAfter.toSeconds()
                        + " s, when its lease ends), or set onInProgress = WAIT to wait for its outcome.",
                null);
        this.retryAfter = retryAfter;
    }

    /** How long until the running call's lease ends: the latest moment a retry makes sense. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
