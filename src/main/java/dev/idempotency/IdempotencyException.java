package dev.idempotency;

import jakarta.ejb.ApplicationException;

/**
 * Base type of every exception this module throws. Messages name the operation and a short hash of
 * the key, never the raw key or the arguments, so they are safe to log and to show.
 *
 * <p>An EJB application exception (with rollback): an EJB client catches these types as they are, not
 * wrapped in {@code EJBException}, and the container does not discard the bean instance.
 */
@ApplicationException(inherited = true, rollback = true)
public class IdempotencyException extends RuntimeException {

    private final String operation;
    private final String keyHash;

    /**
     * @param operation the operation name, or {@code null} when none applies
     * @param keyHash short hash of the key, or {@code null} when there is no key
     * @param message what happened and what to do about it
     * @param cause the underlying failure, or {@code null}
     */
    public IdempotencyException(String operation, String keyHash, String message, Throwable cause) {
        super(message, cause);
        this.operation = operation;
        this.keyHash = keyHash;
    }

    /** The operation name (the {@code @Idempotent} name), or {@code null}. */
    public String operation() {
        return operation;
    }

    /** A short hash of the namespaced key, for correlating logs; or {@code null}. */
    public String keyHash() {
        return keyHash;
    }
}
