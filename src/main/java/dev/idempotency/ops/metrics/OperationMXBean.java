package dev.idempotency.ops.metrics;

import java.util.Map;

/**
 * One guarded operation over JMX: {@code dev.idempotency:type=Operation,application=<app>,name=<operation>}.
 * Every attribute counts since the application started; see {@link OperationMetrics}.
 */
public interface OperationMXBean {

    /** The operation name. */
    String getOperation();

    /** Calls that claimed the key and ran. */
    long getExecutions();

    /** Calls that got the stored outcome back. */
    long getReplays();

    /** Calls refused because another call held the key (409). */
    long getInProgressRefusals();

    /** Calls refused because the key was used with other arguments (422). */
    long getMismatches();

    /** Calls refused because a required key was missing (400). */
    long getMissingKeys();

    /** Calls that did not run because the store failed (503). */
    long getStoreUnavailable();

    /** Executions that took over a claim whose lease had ended. */
    long getTakeovers();

    /** Released claims by cause. */
    Map<String, Long> getReleases();

    /** Executions whose outcome could not be stored. */
    long getOutcomesNotStored();
}
