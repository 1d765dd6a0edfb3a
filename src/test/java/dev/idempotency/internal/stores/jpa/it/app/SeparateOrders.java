package dev.idempotency.internal.stores.jpa.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A CDI bean with @Transactional: the interceptor (priority 100) runs outside the transaction, so the
 * record is written in separate transactions (the default mode).
 */
@ApplicationScoped
public class SeparateOrders {

    /** The operation name. */
    public static final String OPERATION = "jpa-it.separate.place";

    /** An operation configured joined although no transaction is active at the interceptor. */
    public static final String MISUSED = "jpa-it.joined.misused";

    @Inject
    BusinessRows rows;

    /** Inserts a business row in its own transaction, once per key. */
    @Idempotent(name = OPERATION, onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    @Transactional
    public String place(@IdempotencyKey String orderId) {
        rows.insert(orderId);
        Pause.millis(200);
        return "placed " + orderId;
    }

    /**
     * Configured joined without a transaction of its own: it needs its caller's, and a call from outside
     * any transaction is refused at the call. (With {@code @Transactional} the deployment would fail:
     * its transaction would begin after the guard.)
     */
    @Idempotent(name = MISUSED)
    public String misused(@IdempotencyKey String orderId) {
        rows.insert(orderId);
        return "placed " + orderId;
    }
}
