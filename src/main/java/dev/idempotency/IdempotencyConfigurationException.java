package dev.idempotency;

/**
 * Invalid use or configuration found at deployment (or when a plan is built): a bad duration, an
 * unknown store, a key that cannot be read. The message names the method, the config key and the fix.
 */
public class IdempotencyConfigurationException extends IdempotencyException {

    /** @param message the method, what is wrong and how to fix it */
    public IdempotencyConfigurationException(String message) {
        super(null, null, message, null);
    }

    /**
     * @param message the method, what is wrong and how to fix it
     * @param cause the underlying failure
     */
    public IdempotencyConfigurationException(String message, Throwable cause) {
        super(null, null, message, cause);
    }
}
