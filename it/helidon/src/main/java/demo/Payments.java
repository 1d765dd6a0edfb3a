package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/** The README's CDI bean: {@code charge} runs once per order id. */
@ApplicationScoped
public class Payments {

    @Inject
    Effects effects;

    @Idempotent(name = "payments.charge", required = true)
    public String charge(@IdempotencyKey String orderId, long cents) throws InterruptedException {
        effects.record("charge", orderId, cents);
        // long enough that concurrent callers meet it in progress
        Thread.sleep(200);
        return "receipt-" + UUID.randomUUID();
    }

    /** The README's shape: a record result, kept and replayed whole. */
    @Idempotent(name = "payments.authorize", required = true)
    public Receipt authorize(@IdempotencyKey String orderId, long cents) {
        effects.record("authorize", orderId, cents);
        return new Receipt(UUID.randomUUID().toString(), orderId, cents);
    }
}
