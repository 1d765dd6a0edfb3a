package demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Extends {@link Ledger}: inherits {@code capture}, overrides {@code settle}. */
@ApplicationScoped
public class CardLedger extends Ledger {

    @Inject
    Effects effects;

    @Override
    protected Effects effects() {
        return effects;
    }

    @Override
    public String settle(String orderId, long cents) {
        return super.settle(orderId, cents);
    }
}
