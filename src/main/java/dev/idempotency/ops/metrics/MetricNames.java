package dev.idempotency.ops.metrics;

/**
 * The metric names and tags, the same in MicroProfile Metrics, OpenTelemetry and Micrometer
 * (dot-separated, lower case; a Prometheus exposition turns {@code idempotency.calls} into {@code
 * idempotency_calls_total}). Tags are bounded: operation names come from the deployed methods, the
 * rest from fixed lists. Never a key, a principal or a payload. The reference is docs/operations.md.
 */
final class MetricNames {

    /** Counter; tags {@link #OPERATION}, {@link #OUTCOME}. */
    static final String CALLS = "idempotency.calls";
    /** Counter; tag {@link #OPERATION}. */
    static final String TAKEOVERS = "idempotency.takeovers";
    /** Counter; tags {@link #OPERATION}, {@link #CAUSE}. */
    static final String RELEASES = "idempotency.releases";
    /** Counter; tags {@link #OPERATION}, {@link #REASON}. */
    static final String UNSTORED = "idempotency.outcomes.unstored";
    /** Timer (MP Metrics, Micrometer) / histogram in seconds (OpenTelemetry); tag {@link #PRIMITIVE}. */
    static final String STORE_DURATION = "idempotency.store.duration";
    /** Counter; tag {@link #PRIMITIVE}. */
    static final String STORE_FAILURES = "idempotency.store.failures";
    /** Gauge: records the memory store holds (only on the memory store). */
    static final String MEMORY_RECORDS = "idempotency.memory.records";

    static final String OPERATION = "operation";
    static final String OUTCOME = "outcome";
    static final String CAUSE = "cause";
    static final String REASON = "reason";
    static final String PRIMITIVE = "primitive";

    /** Values of {@link #OUTCOME}, in the order of {@link OperationCounters}' outcome counters. */
    static final String[] OUTCOMES = {
        "executed", "replayed", "in_progress", "mismatch", "key_missing", "store_unavailable"
    };

    /** Values of {@link #REASON}. */
    static final String[] UNSTORED_REASONS = {"lease_lost", "store_failed"};

    private MetricNames() {}
}
