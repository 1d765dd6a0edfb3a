package dev.idempotency.examples.shop.orders;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order as the API returns it.
 *
 * @param id the order number
 * @param customer who ordered
 * @param product what
 * @param quantity how many
 * @param total price times quantity
 * @param status NEW or PAID
 * @param createdAt when it was placed
 * @param paidAt when the payment was confirmed, or null
 * @param tradeNo the payment provider's trade number, or null
 */
public record OrderView(
        Long id,
        String customer,
        Product product,
        int quantity,
        BigDecimal total,
        OrderStatus status,
        Instant createdAt,
        Instant paidAt,
        String tradeNo) {}
