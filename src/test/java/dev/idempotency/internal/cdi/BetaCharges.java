package dev.idempotency.internal.cdi;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** Inherits {@link Charges#charge} under operation prefix {@code beta}. */
@ApplicationScoped
@Idempotent(name = "beta")
public class BetaCharges extends Charges {

    @Override
    protected String tag() {
        return "beta";
    }
}
