package dev.idempotency;

/**
 * A stored outcome exists but cannot be handed back as it was: a kept exception whose type cannot be
 * constructed here, or a return value that could not be serialized when the first call completed.
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
}
