package dev.idempotency.examples.shop.payments;

import dev.idempotency.examples.shop.ShopException;

/** The callback cannot be booked: unknown order, wrong amount, or the order was paid by another trade. */
public class PaymentRejected extends ShopException {

    /**
     * A rejection.
     *
     * @param message what does not match
     */
    public PaymentRejected(String message) {
        super(message);
    }

    @Override
    public int status() {
        return 422;
    }

    @Override
    public String title() {
        return "Payment rejected";
    }
}
