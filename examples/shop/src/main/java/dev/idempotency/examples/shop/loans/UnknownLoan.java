package dev.idempotency.examples.shop.loans;

import dev.idempotency.examples.shop.ShopException;

/** A repayment names a loan that does not exist. Kept: a redelivery is refused the same way. */
public class UnknownLoan extends ShopException {

    /**
     * The refusal.
     *
     * @param message which loan
     */
    public UnknownLoan(String message) {
        super(message);
    }

    @Override
    public int status() {
        return 404;
    }

    @Override
    public String title() {
        return "Unknown loan";
    }
}
