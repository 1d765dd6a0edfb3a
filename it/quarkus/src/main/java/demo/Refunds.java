package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;

/** A guarded method declared on an interface: the library's extension carries the binding to the bean. */
public interface Refunds {

    /** Runs once per order id. */
    @Idempotent(name = "refunds.refund", required = true)
    String refund(@IdempotencyKey String orderId);
}
