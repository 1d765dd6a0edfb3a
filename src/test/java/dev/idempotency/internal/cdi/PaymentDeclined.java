package dev.idempotency.internal.cdi;

/** A business (checked) failure: kept by default. */
public class PaymentDeclined extends Exception {
    public PaymentDeclined(String message) {
        super(message);
    }
}
