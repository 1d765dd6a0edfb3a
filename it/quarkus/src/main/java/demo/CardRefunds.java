package demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The bean behind {@link Refunds}; it declares no binding of its own. */
@ApplicationScoped
public class CardRefunds implements Refunds {

    @Inject
    Executions executions;

    @Override
    public String refund(String orderId) {
        executions.ran("refunds", orderId);
        return orderId;
    }
}
