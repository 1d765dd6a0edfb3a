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
 */
public record PaymentView(Long id, String tradeNo, long orderId, BigDecimal amount, Instant bookedAt) {}
