package dev.idempotency.examples.shop.loans;

import java.math.BigDecimal;

/**
 * The body of {@code POST /api/loans}.
 *
 * @param borrower who borrows
 * @param principal the amount lent
 * @param lateFee the late fee already due
 */
public record LoanRequest(String borrower, BigDecimal principal, BigDecimal lateFee) {}
