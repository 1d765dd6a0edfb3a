package dev.idempotency.examples.shop.orders;

/**
 * The body of {@code POST /api/orders}.
 *
 * @param customer who orders, 1 to 100 characters
 * @param product what
 * @param quantity how many, 1 to 99
 */
public record OrderRequest(String customer, Product product, int quantity) {}
