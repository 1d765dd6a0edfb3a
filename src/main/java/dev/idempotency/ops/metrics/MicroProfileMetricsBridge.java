package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.spi.StorePrimitive;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Publishes into the application's MicroProfile Metrics 5 registry. Loaded only when the API is
 * present. Counters are registered per operation when the operation is planned and incremented by
 * its handle; timers per primitive at startup.
 */
final class MicroProfileMetricsBridge implements MetricsBridge {

    private static final Metadata CALLS = Metadata.builder()
            .withName(MetricNames.CALLS)
            .withDescription("Guarded calls by outcome: executed, replayed, in_progress (409), mismatch (422),"
                    + " key_missing (400), store_unavailable (503)")
            .withUnit(MetricUnits.NONE)
            .build();
    private static final Metadata TAKEOVERS = Metadata.builder()
            .withName(MetricNames.TAKEOVERS)
            .withDescription("Executions that took over a claim whose lease had ended")
            .withUnit(MetricUnits.NONE)
            .build();
    private static final Metadata RELEASES = Metadata.builder()
            .withName(MetricNames.RELEASES)
            .withDescription("Claims given back so that the next call runs, by cause")
            .withUnit(MetricUnits.NONE)
            .build();
    private static final Metadata UNSTORED = Metadata.builder()
            .withName(MetricNames.UNSTORED)
            .withDescription("Executions whose outcome could not be stored, by reason")
            .withUnit(MetricUnits.NONE)
            .build();
    private static final Metadata STORE_DURATION = Metadata.builder()
            .withName(MetricNames.STORE_DURATION)
            .withDescription("Duration of idempotency store calls, by primitive")
            .withUnit(MetricUnits.NANOSECONDS)
            .build();
    private static final Metadata STORE_FAILURES = Metadata.builder()
            .withName(MetricNames.STORE_FAILURES)
            .withDescription("Idempotency store calls that failed, by primitive")
            .withUnit(MetricUnits.NONE)
            .build();
    private static final Metadata MEMORY_RECORDS = Metadata.builder()
            .withName(MetricNames.MEMORY_RECORDS)
            .withDescription("Records the memory idempotency store holds")
            .withUnit(MetricUnits.NONE)
            .build();

    private final MetricRegistry registry;
    private final Timer[] timers = new Timer[StorePrimitive.values().length];
    private final Counter[] failures = new Counter[StorePrimitive.values().length];

    private MicroProfileMetricsBridge(MetricRegistry registry, IdempotencyMetrics metrics) {
        this.registry = registry;
        for (StorePrimitive p : StorePrimitive.values()) {
            Tag primitive = new Tag(MetricNames.PRIMITIVE, p.tag());
            timers[p.ordinal()] = registry.timer(STORE_DURATION, primitive);
            failures[p.ordinal()] = registry.counter(STORE_FAILURES, primitive);
        }
        registry.gauge(MEMORY_RECORDS, metrics, m -> m.memoryRecords().orElse(0));
    }

    /** The bridge on the application registry, or {@code null} when the server offers none to this deployment. */
    static MetricsBridge create(Instance<Object> lookup, IdempotencyMetrics metrics) {
        MetricRegistry registry = registry(lookup);
        return registry == null ? null : new MicroProfileMetricsBridge(registry, metrics);
    }

    private static MetricRegistry registry(Instance<Object> lookup) {
        Instance<MetricRegistry> own = lookup.select(MetricRegistry.class);
        if (own.isResolvable()) {
            return own.get();
        }
        // On some servers the registry bean is visible only to the application's bean manager.
        Instance<MetricRegistry> app = CDI.current().select(MetricRegistry.class);
        return app.isResolvable() ? app.get() : null;
    }

    @Override
    public OperationEvents operation(OperationCounters counters) {
        Tag op = new Tag(MetricNames.OPERATION, counters.name);
        Counter[] outcomes = new Counter[MetricNames.OUTCOMES.length];
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] = registry.counter(CALLS, op, new Tag(MetricNames.OUTCOME, MetricNames.OUTCOMES[i]));
        }
        Counter takeovers = registry.counter(TAKEOVERS, op);
        ReleaseCause[] causes = ReleaseCause.values();
        Counter[] releases = new Counter[causes.length];
        for (ReleaseCause c : causes) {
            releases[c.ordinal()] =
                    registry.counter(RELEASES, op, new Tag(MetricNames.CAUSE, OperationCounters.causeTag(c)));
        }
        Counter[] unstored = new Counter[MetricNames.UNSTORED_REASONS.length];
        for (int i = 0; i < unstored.length; i++) {
            unstored[i] = registry.counter(UNSTORED, op, new Tag(MetricNames.REASON, MetricNames.UNSTORED_REASONS[i]));
        }
        return new OperationEvents() {
            @Override
            public void executed(boolean tookOver) {
                outcomes[OperationCounters.EXECUTED].inc();
                if (tookOver) {
                    takeovers.inc();
                }
            }

            @Override
            public void replayed() {
                outcomes[OperationCounters.REPLAYED].inc();
            }

            @Override
            public void refusedInProgress() {
                outcomes[OperationCounters.IN_PROGRESS].inc();
            }

            @Override
            public void mismatched() {
                outcomes[OperationCounters.MISMATCH].inc();
            }

            @Override
            public void keyMissing() {
                outcomes[OperationCounters.KEY_MISSING].inc();
            }

            @Override
            public void storeUnavailable() {
                outcomes[OperationCounters.STORE_UNAVAILABLE].inc();
            }

            @Override
            public void released(ReleaseCause cause) {
                releases[cause.ordinal()].inc();
            }

            @Override
            public void outcomeNotStored(boolean storeFailed) {
                unstored[storeFailed ? 1 : 0].inc();
            }
        };
    }

    @Override
    public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {
        timers[primitive.ordinal()].update(Duration.ofNanos(nanos));
        if (failed) {
            failures[primitive.ordinal()].inc();
        }
    }
}
