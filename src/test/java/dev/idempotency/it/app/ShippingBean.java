package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** An application-scoped CDI bean guarded by @Idempotent with the default REJECT policy. */
@ApplicationScoped
public class ShippingBean {

    @Inject
    ExecutionCounter counter;

    /** Ships once per shipment id; concurrent repeats are rejected while it runs. */
    @Idempotent(name = "it.shipping.ship")
    public Receipt ship(@IdempotencyKey String shipmentId, long weightGrams) {
        int run = counter.ran("cdi:" + shipmentId);
        PaymentEjb.sleep(300);
        return new Receipt(shipmentId, run, weightGrams);
    }
}
