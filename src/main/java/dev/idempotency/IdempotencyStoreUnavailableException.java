package dev.idempotency;

/**
 * The store could not be reached or failed; the guarded method did not run (or, when thrown after it
 * ran, its outcome could not be recorded). Retrying later is safe.
 */
public class IdempotencyStoreUnavailableException extends IdempotencyException {

    /**
     * @param operation the operation name, or {@code null}
     * @param keyHash short hash of the key, or {@code null}
     * @param message what failed
     * @param cause the store's own exception
     */
    public IdempotencyStoreUnavailableException(String operation, String keyHash, String message, Throwable cause) {
        super(operation, keyHash, message, cause);
    }
}
