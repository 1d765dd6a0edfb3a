package dev.idempotency.internal.cdi;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** Inherits {@link Charges#charge} under operation prefix {@code alpha}. */
@ApplicationScoped
@Idempotent(name = "alpha")
public class AlphaCharges extends Charges {

    @Override
    protected String tag() {
        return "alpha";
    }
}
