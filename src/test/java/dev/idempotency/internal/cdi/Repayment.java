package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyKey;
import java.math.BigDecimal;

/**
 * The seeds' repayment message: keyed by serial number, then source.
 *
 * @param source the paying system
 * @param serialNo the payment serial number
 * @param amount the amount (not part of the key, part of the fingerprint)
 */
public record Repayment(
        @IdempotencyKey(order = 2) String source, @IdempotencyKey(order = 1) String serialNo, BigDecimal amount) {}
