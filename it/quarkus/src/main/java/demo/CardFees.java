package demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The bean behind {@link Fees}: it overrides the guarded method and declares no binding of its own. */
@ApplicationScoped
public class CardFees extends Fees {

    @Inject
    Executions executions;

    @Override
    public String charge(String orderId) {
        executions.ran("fees", orderId);
        return orderId;
    }
}
