package dev.idempotency.examples.shop.orders;

import java.math.BigDecimal;

/** What the shop sells, with unit prices. */
public enum Product {
    /** A bag of coffee beans. */
    BEANS("Espresso beans, 1 kg", "18.50"),
    /** A burr grinder. */
    GRINDER("Burr grinder", "89.00"),
    /** A gooseneck kettle. */
    KETTLE("Gooseneck kettle", "45.00");

    private final String label;
    private final BigDecimal price;

    Product(String label, String price) {
        this.label = label;
        this.price = new BigDecimal(price);
    }

    /**
     * The name shown to customers.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * The unit price.
     *
     * @return the price, two decimals
     */
    public BigDecimal price() {
        return price;
    }
}
