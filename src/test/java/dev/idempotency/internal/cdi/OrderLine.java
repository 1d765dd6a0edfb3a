package dev.idempotency.internal.cdi;

import java.math.BigDecimal;
import java.util.Objects;

/** A JSON-B DTO with value equality, returned in a generic List. */
public class OrderLine {
    public String sku;
    public int quantity;
    public BigDecimal price;

    public OrderLine() {}

    public OrderLine(String sku, int quantity, String price) {
        this.sku = sku;
        this.quantity = quantity;
        this.price = new BigDecimal(price);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OrderLine l && l.sku.equals(sku) && l.quantity == quantity && l.price.compareTo(price) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sku, quantity);
    }

    @Override
    public String toString() {
        return sku + "x" + quantity + "@" + price;
    }
}
