package dev.idempotency.examples.shop.payments;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A booked payment as the API shows it.
 *
 * @param id row number
 * @param tradeNo the provider's trade number
 * @param orderId the order paid
 * @param amount the amount booked
 * @param bookedAt when
 * @param batchId the payout batch that paid it out, or null while it waits for the settlement job
 */
public record PaymentView(Long id, String tradeNo, long orderId, BigDecimal amount, Instant bookedAt, Long batchId) {}
