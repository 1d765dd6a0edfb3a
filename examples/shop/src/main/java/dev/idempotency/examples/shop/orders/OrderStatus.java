package dev.idempotency.examples.shop.orders;

/** The life of an order: it is paid at most once. */
public enum OrderStatus {
    /** Placed, waiting for the payment provider's callback. */
    NEW,
    /** The payment provider confirmed the payment. */
    PAID
}
