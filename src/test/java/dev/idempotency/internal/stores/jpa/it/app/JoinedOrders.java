package dev.idempotency.internal.stores.jpa.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * An EJB with container-managed transactions: the transaction is active when the interceptor runs, so
 * the operation is configured for the joined mode and its record commits with the business row.
 */
@Stateless
public class JoinedOrders {

    /** The operation name, as configured in microprofile-config.properties. */
    public static final String OPERATION = "jpa-it.joined.place";

    @Inject
    BusinessRows rows;

    /** Inserts a business row, waits so that duplicates overlap, then fails if asked to. */
    @Idempotent(name = OPERATION, onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    public String place(@IdempotencyKey String orderId, boolean fail) {
        rows.insert(orderId);
        Pause.millis(200);
        if (fail) {
            throw new IllegalStateException("payment declined for the test");
        }
        return "placed " + orderId;
    }
}
