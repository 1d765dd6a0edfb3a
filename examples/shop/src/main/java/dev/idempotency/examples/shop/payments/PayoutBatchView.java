package dev.idempotency.examples.shop.payments;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A run of the settlement job as the API shows it.
 *
 * @param id the batch number
 * @param node the server that ran it
 * @param startedAt when the run started
 * @param finishedAt when it ended
 * @param payments how many payments it paid out
 * @param total their sum
 */
public record PayoutBatchView(
        Long id, String node, Instant startedAt, Instant finishedAt, int payments, BigDecimal total) {}
