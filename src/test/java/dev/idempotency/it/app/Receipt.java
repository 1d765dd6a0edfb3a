package dev.idempotency.it.app;

/**
 * A result with an identity of its own: the run number proves which execution produced it.
 *
 * @param orderId the key
 * @param run which execution made this receipt (1 for the first)
 * @param amountCents the charged amount
 */
public record Receipt(String orderId, int run, long amountCents) {}
