package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.spi.StorePrimitive;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.inject.Instance;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Publishes into a Micrometer registry (Quarkus's {@code quarkus-micrometer}, or any application that
 * has Micrometer): the {@code MeterRegistry} bean, or else {@link Metrics#globalRegistry}. Loaded only
 * when the API is present. The counters are function counters: Micrometer reads {@link
 * OperationCounters} when it publishes, so a guarded call costs nothing here; only the store latency
 * timer is recorded per store call. Every meter it registered is removed on {@link #close}, so that an
 * undeployed application leaves no meter (and none of its classes) in a registry that outlives it.
 */
final class MicrometerBridge implements MetricsBridge {

    private final MeterRegistry registry;
    private final Timer[] timers = new Timer[StorePrimitive.values().length];
    private final Queue<Meter> registered = new ConcurrentLinkedQueue<>();

    private MicrometerBridge(MeterRegistry registry, IdempotencyMetrics metrics) {
        this.registry = registry;
        for (StorePrimitive p : StorePrimitive.values()) {
            Tags primitive = Tags.of(MetricNames.PRIMITIVE, p.tag());
            timers[p.ordinal()] = keep(Timer.builder(MetricNames.STORE_DURATION)
                    .description("Duration of idempotency store calls, by primitive")
                    .tags(primitive)
                    .register(registry));
            keep(FunctionCounter.builder(MetricNames.STORE_FAILURES, metrics.latency(p).failures, LongAdder::sum)
                    .description("Idempotency store calls that failed, by primitive")
                    .tags(primitive)
                    .register(registry));
        }
        keep(Gauge.builder(MetricNames.MEMORY_RECORDS, metrics, m -> m.memoryRecords()
                        .orElse(0))
                .description("Records the memory idempotency store holds")
                .register(registry));
    }

    /** The bridge on the application's {@code MeterRegistry} bean, or else on the global registry. */
    static MetricsBridge create(Instance<Object> lookup, IdempotencyMetrics metrics) {
        Instance<MeterRegistry> bean = lookup.select(MeterRegistry.class);
        MeterRegistry registry = bean.isResolvable() ? bean.get() : Metrics.globalRegistry;
        return new MicrometerBridge(registry, metrics);
    }

    @Override
    public OperationEvents operation(OperationCounters counters) {
        Tags op = Tags.of(MetricNames.OPERATION, counters.name);
        for (int i = 0; i < MetricNames.OUTCOMES.length; i++) {
            counter(
                    MetricNames.CALLS,
                    "Guarded calls by outcome",
                    op.and(MetricNames.OUTCOME, MetricNames.OUTCOMES[i]),
                    counters.outcomes[i]);
        }
        counter(
                MetricNames.TAKEOVERS,
                "Executions that took over a claim whose lease had ended",
                op,
                counters.takeovers);
        for (ReleaseCause cause : ReleaseCause.values()) {
            counter(
                    MetricNames.RELEASES,
                    "Claims given back so that the next call runs, by cause",
                    op.and(MetricNames.CAUSE, OperationCounters.causeTag(cause)),
                    counters.releases[cause.ordinal()]);
        }
        for (int i = 0; i < MetricNames.UNSTORED_REASONS.length; i++) {
            counter(
                    MetricNames.UNSTORED,
                    "Executions whose outcome could not be stored, by reason",
                    op.and(MetricNames.REASON, MetricNames.UNSTORED_REASONS[i]),
                    counters.unstored[i]);
        }
        return OperationEvents.NONE;
    }

    private void counter(String name, String description, Tags tags, LongAdder count) {
        // Micrometer keeps a weak reference to the adder: the operation's counters hold it strongly.
        keep(FunctionCounter.builder(name, count, LongAdder::sum)
                .description(description)
                .tags(tags)
                .register(registry));
    }

    private <M extends Meter> M keep(M meter) {
        registered.add(meter);
        return meter;
    }

    @Override
    public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {
        timers[primitive.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        for (Meter m; (m = registered.poll()) != null; ) {
            registry.remove(m);
        }
    }
}
