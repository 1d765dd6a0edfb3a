package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;

/** A guarded method declared on a superclass that the bean overrides ({@link CardFees}). */
public abstract class Fees {

    /** Runs once per order id. */
    @Idempotent(name = "fees.charge", required = true)
    public abstract String charge(@IdempotencyKey String orderId);
}
