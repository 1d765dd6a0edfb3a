package dev.idempotency;

/** The operation requires a key and the call supplied none (a null or blank key value). */
public class IdempotencyKeyMissingException extends IdempotencyException {

    /**
     * @param operation the operation name
     * @param detail which value was missing and how to supply it
     */
    public IdempotencyKeyMissingException(String operation, String detail) {
        super(operation, null, "Operation '" + operation + "' requires an idempotency key: " + detail, null);
    }
}
