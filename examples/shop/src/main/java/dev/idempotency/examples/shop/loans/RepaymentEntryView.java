package dev.idempotency.examples.shop.loans;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A ledger row as the API shows it.
 *
 * @param id the row number
 * @param serialNo the message's serial number
 * @param source the message's source
 * @param loanId the loan
 * @param toPrincipal the part that paid principal
 * @param toLateFee the part that paid the late fee
 * @param settledAt when
 */
public record RepaymentEntryView(
        Long id,
        String serialNo,
        String source,
        long loanId,
        BigDecimal toPrincipal,
        BigDecimal toLateFee,
        Instant settledAt) {}
