package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/** A nested {@code @Transactional} (REQUIRED) step: it joins the caller's transaction and, failing, marks it. */
@ApplicationScoped
public class NestedStep {

    /** Throws; its interceptor marks the joined transaction for rollback. */
    @Transactional
    public void fail(String orderId) {
        throw new NestedFailure(orderId);
    }
}
