package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The README's guarded CDI method. */
@ApplicationScoped
public class Payments {

    @Inject
    Executions executions;

    /** Runs once per order id. */
    @Idempotent(name = "payments.charge", required = true)
    public String charge(@IdempotencyKey String orderId, long cents) {
        executions.ran("charges", orderId);
        return orderId + ":" + cents;
    }

    /** Runs once per order id, and takes {@code holdMillis}, so that a repeat finds it in progress. */
    @Idempotent(name = "payments.settle", required = true)
    public String settle(@IdempotencyKey String orderId, long holdMillis) throws InterruptedException {
        executions.ran("settlements", orderId);
        Thread.sleep(holdMillis);
        return orderId;
    }
}
