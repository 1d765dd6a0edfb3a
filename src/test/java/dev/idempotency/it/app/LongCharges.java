package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A guarded call that runs three times its lease: the keep-alive is all that keeps duplicates out. */
@ApplicationScoped
public class LongCharges {

    /** The lease of {@link #settle}, in milliseconds. */
    public static final long LEASE_MILLIS = 1_000;

    @Inject
    Effects effects;

    /** Writes its effect row (committed at once: no transaction), then runs on for three leases. */
    @Idempotent(name = "it.long.settle", lease = "PT1S")
    public Receipt settle(@IdempotencyKey String settlementId) {
        int run = effects.write(settlementId);
        PaymentEjb.sleep(3 * LEASE_MILLIS + 300);
        return new Receipt(settlementId, run, 0);
    }
}
