package dev.idempotency.examples.shop.loans;

import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The order system's consumer of repayment messages (seed 001). The broker redelivers a message when
 * it did not see the acknowledgement; without the guard each delivery would pay the loan again.
 *
 * <p>Keyed by the message's {@code @IdempotencyKey} components (serial number, then source). {@code
 * WAIT}: a redelivery that arrives while the first delivery is being settled waits for its result,
 * so the broker gets the same acknowledgement rather than an error and another redelivery.
 */
@ApplicationScoped
public class RepaymentConsumer {

    @PersistenceContext(unitName = "shop")
    EntityManager em;

    /**
     * Settles one repayment, once per (serial number, source).
     *
     * @param message the delivered message
     * @return what the settlement did; the same for every redelivery
     * @throws UnknownLoan the message names no loan; kept
     */
    @Idempotent(name = "shop.repayments.settle", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    @Transactional
    public SettlementResult onMessage(RepaymentMessage message) throws UnknownLoan {
        // Different serial numbers of one loan may be settled at the same time: lock the loan row.
        Loan loan = em.find(Loan.class, message.loanId(), LockModeType.PESSIMISTIC_WRITE);
        if (loan == null) {
            throw new UnknownLoan("no loan " + message.loanId());
        }
        BigDecimal[] split = loan.repay(message.amount());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        RepaymentEntry entry =
                new RepaymentEntry(message.serialNo(), message.source(), message.loanId(), split[0], split[1], now);
        em.persist(entry);
        em.flush();
        LoanView after = loan.view();
        return new SettlementResult(
                entry.id(),
                message.serialNo(),
                message.source(),
                message.loanId(),
                split[0],
                split[1],
                after.principalDue(),
                after.lateFeeDue(),
                after.closed(),
                now);
    }
}
