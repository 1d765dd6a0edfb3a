package dev.idempotency;

/** The key was first used with different arguments (a different fingerprint); the call did not run. */
public class IdempotencyKeyMismatchException extends IdempotencyException {

    /**
     * @param operation the operation name
     * @param keyHash short hash of the key
     */
    public IdempotencyKeyMismatchException(String operation, String keyHash) {
        super(
                operation,
                keyHash,
                "Operation '" + operation + "' was already called with key #" + keyHash
                        + " and different arguments; use a new key for a new request, or repeat the"
                        + " original arguments to get the stored outcome.",
                null);
    }
}
