package dev.idempotency.examples.shop.loans;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * What settling one repayment did. A redelivered message gets this same result back.
 *
 * @param entryId the ledger row written
 * @param serialNo the message's serial number
 * @param source the message's source
 * @param loanId the loan
 * @param toPrincipal the part that paid principal
 * @param toLateFee the part that paid the late fee
 * @param principalDue principal owed afterwards
 * @param lateFeeDue late fee owed afterwards
 * @param loanClosed true when the loan is repaid
 * @param settledAt when it was settled (the first time)
 */
public record SettlementResult(
        Long entryId,
        String serialNo,
        String source,
        long loanId,
        BigDecimal toPrincipal,
        BigDecimal toLateFee,
        BigDecimal principalDue,
        BigDecimal lateFeeDue,
        boolean loanClosed,
        Instant settledAt) {}
