package dev.idempotency.examples.shop.loans;

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
 * A ledger row: one per settlement actually executed. No unique constraint on (serial number,
 * source), on purpose: a double settlement would show as a second row.
 */
@Entity
@Table(name = "SHOP_REPAYMENT")
public class RepaymentEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.TABLE, generator = "shop_repayment")
    @TableGenerator(name = "shop_repayment", table = "SHOP_ID", pkColumnValue = "SHOP_REPAYMENT", allocationSize = 20)
    private Long id;

    @Column(nullable = false, length = 64)
    private String serialNo;

    @Column(nullable = false, length = 32)
    private String source;

    private long loanId;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal toPrincipal;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal toLateFee;

    @Column(nullable = false)
    private Instant settledAt;

    /** For JPA. */
    protected RepaymentEntry() {}

    RepaymentEntry(
            String serialNo,
            String source,
            long loanId,
            BigDecimal toPrincipal,
            BigDecimal toLateFee,
            Instant settledAt) {
        this.serialNo = serialNo;
        this.source = source;
        this.loanId = loanId;
        this.toPrincipal = toPrincipal;
        this.toLateFee = toLateFee;
        this.settledAt = settledAt;
    }

    Long id() {
        return id;
    }

    /**
     * The row as the API shows it.
     *
     * @return a detached view
     */
    public RepaymentEntryView view() {
        return new RepaymentEntryView(id, serialNo, source, loanId, toPrincipal, toLateFee, settledAt);
    }
}
