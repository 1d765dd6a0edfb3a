package dev.idempotency.examples.shop.loans;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.TableGenerator;
import java.math.BigDecimal;

/**
 * A loan of seed 001: a repayment pays the principal first, then the late fee; when both are zero the
 * loan is closed.
 */
@Entity
@Table(name = "SHOP_LOAN")
public class Loan {

    @Id
    @GeneratedValue(strategy = GenerationType.TABLE, generator = "shop_loan")
    @TableGenerator(name = "shop_loan", table = "SHOP_ID", pkColumnValue = "SHOP_LOAN", allocationSize = 20)
    private Long id;

    @Column(nullable = false, length = 100)
    private String borrower;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal principalDue;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal lateFeeDue;

    /** For JPA. */
    protected Loan() {}

    Loan(String borrower, BigDecimal principal, BigDecimal lateFee) {
        this.borrower = borrower;
        this.principalDue = principal;
        this.lateFeeDue = lateFee;
    }

    /**
     * The loan as the API shows it.
     *
     * @return a detached view
     */
    public LoanView view() {
        return new LoanView(id, borrower, principalDue, lateFeeDue, closed());
    }

    boolean closed() {
        return principalDue.signum() == 0 && lateFeeDue.signum() == 0;
    }

    /** Applies a repayment: principal first, then the late fee. Returns {toPrincipal, toLateFee}. */
    BigDecimal[] repay(BigDecimal amount) {
        BigDecimal toPrincipal = amount.min(principalDue);
        principalDue = principalDue.subtract(toPrincipal);
        BigDecimal toLateFee = amount.subtract(toPrincipal).min(lateFeeDue);
        lateFeeDue = lateFeeDue.subtract(toLateFee);
        return new BigDecimal[] {toPrincipal, toLateFee};
    }
}
