package dev.idempotency.examples.shop.payments;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.TableGenerator;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A booked payment: one row per execution of the callback handler. There is deliberately no unique
 * constraint on the trade number, so that a second execution would show as a second row.
 */
@Entity
@Table(name = "SHOP_PAYMENT")
public class Payment {

    @Id
    @GeneratedValue(strategy = GenerationType.TABLE, generator = "shop_payment")
    @TableGenerator(name = "shop_payment", table = "SHOP_ID", pkColumnValue = "SHOP_PAYMENT", allocationSize = 20)
    private Long id;

    @Column(nullable = false, length = 64)
    private String tradeNo;

    private long orderId;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal amount;

    @Column(nullable = false)
    private Instant bookedAt;

    /** The payout batch that paid this payment out; null until the settlement job ran. */
    private Long batchId;

    /** For JPA. */
    protected Payment() {}

    Payment(String tradeNo, long orderId, BigDecimal amount, Instant bookedAt) {
        this.tradeNo = tradeNo;
        this.orderId = orderId;
        this.amount = amount;
        this.bookedAt = bookedAt;
    }

    BigDecimal amount() {
        return amount;
    }

    void payOut(long batch) {
        if (batchId != null) {
            // Would be a double payout: the cluster lock exists so that this never happens.
            throw new IllegalStateException("payment " + id + " was already paid out in batch " + batchId);
        }
        batchId = batch;
    }

    /**
     * The row as the API shows it.
     *
     * @return a detached view
     */
    public PaymentView view() {
        return new PaymentView(id, tradeNo, orderId, amount, bookedAt, batchId);
    }
}
