package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless session bean guarded by @Idempotent; concurrent repeats wait for the first outcome. */
@Stateless
public class PaymentEjb {

    @Inject
    ExecutionCounter counter;

    /** Charges once per order id; slow enough that concurrent callers overlap. */
    @Idempotent(name = "it.payments.charge", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    public Receipt charge(@IdempotencyKey String orderId, long amountCents) {
        int run = counter.ran("ejb:" + orderId);
        sleep(300);
        return new Receipt(orderId, run, amountCents);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
