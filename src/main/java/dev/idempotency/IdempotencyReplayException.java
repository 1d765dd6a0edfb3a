package dev.idempotency;

/**
 * A stored outcome exists but cannot be handed back as it was: a kept exception that cannot be rebuilt
 * here with its message and fields, a return value that could not be serialized when the first call
 * completed, or a stored value that can no longer be read back (its type changed since).
 * The method does not run again; the message names the original type and message.
 */
public class IdempotencyReplayException extends IdempotencyException {

    /**
     * @param operation the operation name
     * @param keyHash short hash of the key
     * @param message what was stored and why it cannot be replayed as is
     */
    public IdempotencyReplayException(String operation, String keyHash, String message) {
        super(operation, keyHash, message, null);
    }

    /**
     * @param operation the operation name
     * @param keyHash short hash of the key
     * @param message what was stored and why it cannot be replayed as is
     * @param cause why reading the stored outcome failed
     */
    public IdempotencyReplayException(String operation, String keyHash, String message, Throwable cause) {
        super(operation, keyHash, message, cause);
    }
}
