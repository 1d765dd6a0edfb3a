package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.ejb.Local;

/** An EJB business interface that declares the guard and the key. */
@Local
public interface RefundService {

    /** Refunds once per order; returns the run's number. */
    @Idempotent
    int refund(@IdempotencyKey String orderId, long cents);
}
