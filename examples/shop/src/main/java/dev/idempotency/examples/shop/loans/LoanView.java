package dev.idempotency.examples.shop.loans;

import java.math.BigDecimal;

/**
 * A loan as the API shows it.
 *
 * @param id the loan number
 * @param borrower who borrowed
 * @param principalDue principal still owed
 * @param lateFeeDue late fee still owed
 * @param closed true when nothing is owed
 */
public record LoanView(Long id, String borrower, BigDecimal principalDue, BigDecimal lateFeeDue, boolean closed) {}
