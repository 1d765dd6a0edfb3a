package dev.idempotency.examples.shop.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.TableGenerator;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order row. One row per execution of {@link OrderService#place}: counting rows counts executions,
 * which is how the tests see that five clicks placed one order.
 */
@Entity
@Table(name = "SHOP_ORDER")
public class PurchaseOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.TABLE, generator = "shop_order")
    @TableGenerator(name = "shop_order", table = "SHOP_ID", pkColumnValue = "SHOP_ORDER", allocationSize = 20)
    private Long id;

    @Column(nullable = false, length = 100)
    private String customer;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private Product product;

    private int quantity;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal total;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 10)
    private OrderStatus status;

    @Column(nullable = false)
    private Instant createdAt;

    private Instant paidAt;

    @Column(length = 64)
    private String tradeNo;

    /** For JPA. */
    protected PurchaseOrder() {}

    PurchaseOrder(String customer, Product product, int quantity, Instant now) {
        this.customer = customer;
        this.product = product;
        this.quantity = quantity;
        this.total = product.price().multiply(BigDecimal.valueOf(quantity));
        this.status = OrderStatus.NEW;
        this.createdAt = now;
    }

    /**
     * The order as the API shows it.
     *
     * @return a detached view
     */
    public OrderView view() {
        return new OrderView(id, customer, product, quantity, total, status, createdAt, paidAt, tradeNo);
    }

    /**
     * The amount the payment must match.
     *
     * @return the total
     */
    public BigDecimal total() {
        return total;
    }

    /**
     * Where the order is in its life.
     *
     * @return the status
     */
    public OrderStatus status() {
        return status;
    }

    /**
     * The provider's trade number that paid this order, if any.
     *
     * @return the trade number or null
     */
    public String tradeNo() {
        return tradeNo;
    }

    /**
     * Moves NEW to PAID: the state-machine guard of seed 000, a second line of defence behind the
     * idempotency key.
     */
    void markPaid(String tradeNo, Instant now) {
        if (status != OrderStatus.NEW) {
            throw new IllegalStateException("order " + id + " is " + status + ", not NEW");
        }
        this.status = OrderStatus.PAID;
        this.tradeNo = tradeNo;
        this.paidAt = now;
    }
}
