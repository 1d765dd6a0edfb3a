package dev.idempotency.it.app;

import jakarta.ejb.ApplicationException;

/**
 * An unchecked business exception that does not roll the transaction back: an EJB application
 * exception with {@code rollback = false}, and listed in {@code dontRollbackOn} of the CDI methods.
 * By the default exception rule it would release the key; inside a transaction that commits it must
 * be kept instead, because the method's work committed.
 */
@ApplicationException(rollback = false)
public class NonFatal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what went wrong */
    public NonFatal(String message) {
        super(message);
    }
}
