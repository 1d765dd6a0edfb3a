package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;

/** {@code @Idempotent} declared on an interface method, implemented by {@link CardRefunds}. */
public interface Refunds {

    @Idempotent(name = "refunds.refund")
    String refund(@IdempotencyKey String orderId, long cents);
}
