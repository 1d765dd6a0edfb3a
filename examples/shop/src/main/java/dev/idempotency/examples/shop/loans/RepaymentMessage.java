package dev.idempotency.examples.shop.loans;

import dev.idempotency.IdempotencyKey;
import java.math.BigDecimal;

/**
 * One repayment, as the payment system sends it to the order system (seed 001). The payment system's
 * serial number is unique per source (Alipay, bank transfer, ...), so the key is serial number and
 * source, joined in {@code order}; the loan and amount are part of the fingerprint, not of the key.
 *
 * @param serialNo the payment system's serial number
 * @param source where the money came from, e.g. {@code ALIPAY_OFFLINE}
 * @param loanId the loan repaid
 * @param amount the amount repaid
 */
public record RepaymentMessage(
        @IdempotencyKey(order = 1) String serialNo,
        @IdempotencyKey(order = 2) String source,
        long loanId,
        BigDecimal amount) {}
