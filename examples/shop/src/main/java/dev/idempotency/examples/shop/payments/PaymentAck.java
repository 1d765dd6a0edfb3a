package dev.idempotency.examples.shop.payments;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The shop's answer to a callback. A retried callback gets this same answer, {@code handledAt}
 * included, because it is replayed rather than recomputed.
 *
 * @param result {@code success}, the word providers wait for before they stop retrying
 * @param orderId the order paid
 * @param tradeNo the provider's trade number
 * @param amount the amount booked
 * @param handledAt when the callback was handled (the first time)
 */
public record PaymentAck(String result, long orderId, String tradeNo, BigDecimal amount, Instant handledAt) {}
