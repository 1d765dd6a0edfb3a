package dev.idempotency.examples.shop.payments;

import java.math.BigDecimal;

/**
 * What the payment provider's callback says.
 *
 * @param tradeNo the provider's trade number: unique per payment, the same on every retry
 * @param orderId the shop's order number ({@code out_trade_no})
 * @param amount the amount paid
 * @param tradeStatus the provider's status, {@code TRADE_SUCCESS} when paid
 */
public record PaymentNotice(String tradeNo, long orderId, BigDecimal amount, String tradeStatus) {}
