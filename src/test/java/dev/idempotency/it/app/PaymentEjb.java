package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless session bean guarded by @Idempotent; concurrent repeats wait for the first outcome. */
@Stateless
public class PaymentEjb {

    @Inject
    ExecutionCounter counter;

    @Resource
    SessionContext context;

    /** Runs, then its container-managed transaction rolls back: the key must be released. */
    @Idempotent(name = "it.payments.doomed")
    public Receipt doomed(@IdempotencyKey String orderId) {
        int run = counter.ran("doomed:" + orderId);
        context.setRollbackOnly();
        return new Receipt(orderId, run, 0);
    }

    /** Default REJECT on an EJB: concurrent repeats must see the idempotency exception itself. */
    @Idempotent(name = "it.payments.capture")
    public Receipt capture(@IdempotencyKey String orderId) {
        int run = counter.ran("capture:" + orderId);
        sleep(300);
        return new Receipt(orderId, run, 1);
    }

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
