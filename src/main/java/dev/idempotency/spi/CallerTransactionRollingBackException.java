package dev.idempotency.spi;

/**
 * A joining store's answer to a {@link IdempotencyStore#complete(GuardedOperation, String, String, byte[],
 * java.time.Duration) complete} or {@link IdempotencyStore#release(GuardedOperation, String, String) release}
 * of an operation in the joined mode whose caller's JTA transaction will not commit: it is marked for
 * rollback (a failed flush, a nested {@code @Transactional} method that threw) or already rolling back.
 * The store wrote nothing, and the claim ends with that rollback: it was part of the transaction, or the
 * store releases it when the transaction ends. The engine then stores nothing and the caller gets the
 * call's own outcome (its exception, or its container's rollback); the key is free again, as the call's
 * work rolled back.
 *
 * <p>Not an error: a store throws it only in the joined mode, and nothing logs it above DEBUG.
 */
public class CallerTransactionRollingBackException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param operation the operation name
     * @param status the JTA status found ({@code jakarta.transaction.Status})
     */
    public CallerTransactionRollingBackException(String operation, int status) {
        super(
                "The transaction of operation '" + operation + "' is marked for rollback or rolling back (JTA status "
                        + status + "), so its idempotency record is not written: the claim ends with the rollback",
                null,
                false,
                false);
    }
}
