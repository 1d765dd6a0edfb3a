package demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/** Implements {@link Refunds}; the guard comes from the interface's declaration alone. */
@ApplicationScoped
public class CardRefunds implements Refunds {

    @Inject
    Effects effects;

    @Override
    public String refund(String orderId, long cents) {
        effects.record("refund", orderId, cents);
        return "refund-" + UUID.randomUUID();
    }
}
