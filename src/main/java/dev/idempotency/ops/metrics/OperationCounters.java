package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.ReleaseCause;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one operation, and its events handle: each event adds one to a {@link LongAdder}
 * (JMX, the snapshot API, OpenTelemetry and Micrometer read them) and forwards to the handles of the bridges that
 * count by themselves (MicroProfile Metrics).
 */
final class OperationCounters implements OperationEvents {

    static final int EXECUTED = 0;
    static final int REPLAYED = 1;
    static final int IN_PROGRESS = 2;
    static final int MISMATCH = 3;
    static final int KEY_MISSING = 4;
    static final int STORE_UNAVAILABLE = 5;

    private static final ReleaseCause[] CAUSES = ReleaseCause.values();

    final String name;
    final LongAdder[] outcomes = adders(MetricNames.OUTCOMES.length);
    final LongAdder takeovers = new LongAdder();
    final LongAdder[] releases = adders(CAUSES.length);
    /** Index 0: the claim was lost (lease ended, taken over); 1: the store failed. */
    final LongAdder[] unstored = adders(2);

    /** Copied on write: bridges are added at startup, events read the array once each. */
    private volatile OperationEvents[] forwards = new OperationEvents[0];

    OperationCounters(String name) {
        this.name = name;
    }

    /** Adds a bridge's handle; the caller serializes the additions. */
    void forwardTo(OperationEvents handle) {
        OperationEvents[] more = java.util.Arrays.copyOf(forwards, forwards.length + 1);
        more[more.length - 1] = handle;
        forwards = more;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** The tag value of a release cause. */
    static String causeTag(ReleaseCause cause) {
        return cause.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void executed(boolean tookOver) {
        outcomes[EXECUTED].increment();
        if (tookOver) {
            takeovers.increment();
        }
        for (OperationEvents f : forwards) {
            f.executed(tookOver);
        }
    }

    @Override
    public void replayed() {
        outcomes[REPLAYED].increment();
        for (OperationEvents f : forwards) {
            f.replayed();
        }
    }

    @Override
    public void refusedInProgress() {
        outcomes[IN_PROGRESS].increment();
        for (OperationEvents f : forwards) {
            f.refusedInProgress();
        }
    }

    @Override
    public void mismatched() {
        outcomes[MISMATCH].increment();
        for (OperationEvents f : forwards) {
            f.mismatched();
        }
    }

    @Override
    public void keyMissing() {
        outcomes[KEY_MISSING].increment();
        for (OperationEvents f : forwards) {
            f.keyMissing();
        }
    }

    @Override
    public void storeUnavailable() {
        outcomes[STORE_UNAVAILABLE].increment();
        for (OperationEvents f : forwards) {
            f.storeUnavailable();
        }
    }

    @Override
    public void released(ReleaseCause cause) {
        releases[cause.ordinal()].increment();
        for (OperationEvents f : forwards) {
            f.released(cause);
        }
    }

    @Override
    public void outcomeNotStored(boolean storeFailed) {
        unstored[storeFailed ? 1 : 0].increment();
        for (OperationEvents f : forwards) {
            f.outcomeNotStored(storeFailed);
        }
    }

    /** A consistent-enough copy for reading (each counter is read once). */
    OperationMetrics snapshot() {
        java.util.Map<String, Long> byCause = new java.util.LinkedHashMap<>();
        for (ReleaseCause c : CAUSES) {
            byCause.put(causeTag(c), releases[c.ordinal()].sum());
        }
        return new OperationMetrics(
                name,
                outcomes[EXECUTED].sum(),
                outcomes[REPLAYED].sum(),
                outcomes[IN_PROGRESS].sum(),
                outcomes[MISMATCH].sum(),
                outcomes[KEY_MISSING].sum(),
                outcomes[STORE_UNAVAILABLE].sum(),
                takeovers.sum(),
                java.util.Collections.unmodifiableMap(byCause),
                unstored[0].sum() + unstored[1].sum());
    }
}
