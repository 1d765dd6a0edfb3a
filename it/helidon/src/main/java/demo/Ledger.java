package demo;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import java.util.UUID;

/**
 * {@code @Idempotent} declared on superclass methods: {@code capture} is inherited as is by
 * {@link CardLedger}, {@code settle} is overridden there without the annotation.
 */
public abstract class Ledger {

    protected abstract Effects effects();

    @Idempotent(name = "ledger.capture")
    public String capture(@IdempotencyKey String orderId, long cents) {
        effects().record("capture", orderId, cents);
        return "capture-" + UUID.randomUUID();
    }

    @Idempotent(name = "ledger.settle")
    public String settle(@IdempotencyKey String orderId, long cents) {
        effects().record("settle", orderId, cents);
        return "settle-" + UUID.randomUUID();
    }
}
