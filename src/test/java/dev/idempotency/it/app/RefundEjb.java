package dev.idempotency.it.app;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless EJB guarded through its {@code @Local} business interface ({@link RefundService}). */
@Stateless
public class RefundEjb implements RefundService {

    @Inject
    ExecutionCounter counter;

    @Override
    public int refund(String orderId, long cents) {
        return counter.ran("refund:" + orderId);
    }
}
