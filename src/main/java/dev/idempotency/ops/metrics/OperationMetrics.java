package dev.idempotency.ops.metrics;

import java.util.Map;

/**
 * The counts of one guarded operation since the application started.
 *
 * @param operation the operation name
 * @param executions calls that claimed the key and ran the operation (takeovers included)
 * @param replays calls that got the stored outcome back without running
 * @param inProgressRefusals calls refused because another call held the key (HTTP 409)
 * @param mismatches calls refused because the key was used with other arguments (HTTP 422)
 * @param missingKeys calls refused because a required key was missing (HTTP 400)
 * @param storeUnavailable calls that did not run because the store failed while claiming (HTTP 503)
 * @param takeovers executions whose claim replaced an IN_PROGRESS record whose lease had ended
 * @param releases released claims by cause ({@code exception}, {@code rollback}, {@code status},
 *     {@code operator}, {@code other})
 * @param outcomesNotStored executions whose outcome could not be stored
 */
public record OperationMetrics(
        String operation,
        long executions,
        long replays,
        long inProgressRefusals,
        long mismatches,
        long missingKeys,
        long storeUnavailable,
        long takeovers,
        Map<String, Long> releases,
        long outcomesNotStored) {}
