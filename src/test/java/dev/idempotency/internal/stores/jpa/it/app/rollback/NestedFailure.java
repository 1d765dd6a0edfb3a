package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.ejb.ApplicationException;

/**
 * What the nested {@code @Transactional} step throws. An EJB application exception, so that the EJB
 * container hands it to the caller as it is (a system exception would reach it wrapped); it marks the
 * transaction for rollback either way, here by the nested step's {@code @Transactional}.
 */
@ApplicationException(rollback = true)
public class NestedFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param orderId the order whose step failed */
    public NestedFailure(String orderId) {
        super("the nested step of " + orderId + " failed for the test");
    }
}
