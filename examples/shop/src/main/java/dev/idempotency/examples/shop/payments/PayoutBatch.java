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

/** One run of the settlement job: which node ran it, when, and the payments it paid out. */
@Entity
@Table(name = "SHOP_PAYOUT_BATCH")
public class PayoutBatch {

    @Id
    @GeneratedValue(strategy = GenerationType.TABLE, generator = "shop_payout_batch")
    @TableGenerator(
            name = "shop_payout_batch",
            table = "SHOP_ID",
            pkColumnValue = "SHOP_PAYOUT_BATCH",
            allocationSize = 20)
    private Long id;

    @Column(nullable = false, length = 120)
    private String node;

    @Column(nullable = false)
    private Instant startedAt;

    @Column(nullable = false)
    private Instant finishedAt;

    private int payments;

    @Column(nullable = false, precision = 14, scale = 2)
    private BigDecimal total;

    /** For JPA. */
    protected PayoutBatch() {}

    PayoutBatch(String node, Instant startedAt) {
        this.node = node;
        this.startedAt = startedAt;
        this.finishedAt = startedAt;
        this.total = BigDecimal.ZERO;
    }

    Long id() {
        return id;
    }

    void finish(int payments, BigDecimal total, Instant finishedAt) {
        this.payments = payments;
        this.total = total;
        this.finishedAt = finishedAt;
    }

    /**
     * The batch as the API shows it.
     *
     * @return a detached view
     */
    public PayoutBatchView view() {
        return new PayoutBatchView(id, node, startedAt, finishedAt, payments, total);
    }
}
