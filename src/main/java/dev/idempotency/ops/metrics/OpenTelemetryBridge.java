package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.spi.StorePrimitive;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import jakarta.enterprise.inject.Instance;
import java.util.ArrayList;
import java.util.List;

/**
 * Publishes through the OpenTelemetry metrics API (MicroProfile Telemetry 2.0 on WildFly and Open
 * Liberty). Loaded only when the API is present. The counters are asynchronous: OpenTelemetry reads
 * {@link OperationCounters} when it collects, so a guarded call costs nothing here; only the store
 * latency histogram is recorded per store call.
 */
final class OpenTelemetryBridge implements MetricsBridge {

    /** The instrumentation scope name. */
    static final String SCOPE = "dev.idempotency";

    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey(MetricNames.OPERATION);
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey(MetricNames.OUTCOME);
    private static final AttributeKey<String> CAUSE = AttributeKey.stringKey(MetricNames.CAUSE);
    private static final AttributeKey<String> REASON = AttributeKey.stringKey(MetricNames.REASON);
    private static final AttributeKey<String> PRIMITIVE = AttributeKey.stringKey(MetricNames.PRIMITIVE);
    private static final double NANOS_PER_SECOND = 1e9;

    private final DoubleHistogram duration;
    private final Attributes[] primitives = new Attributes[StorePrimitive.values().length];
    private final List<AutoCloseable> callbacks = new ArrayList<>();

    OpenTelemetryBridge(Meter meter, IdempotencyMetrics metrics) {
        for (StorePrimitive p : StorePrimitive.values()) {
            primitives[p.ordinal()] = Attributes.of(PRIMITIVE, p.tag());
        }
        duration = meter.histogramBuilder(MetricNames.STORE_DURATION)
                .setDescription("Duration of idempotency store calls, by primitive")
                .setUnit("s")
                .build();
        callbacks.add(meter.counterBuilder(MetricNames.CALLS)
                .setDescription("Guarded calls by outcome")
                .setUnit("{call}")
                .buildWithCallback(m -> {
                    for (OperationCounters c : metrics.counters()) {
                        for (int i = 0; i < MetricNames.OUTCOMES.length; i++) {
                            m.record(
                                    c.outcomes[i].sum(),
                                    Attributes.of(OPERATION, c.name, OUTCOME, MetricNames.OUTCOMES[i]));
                        }
                    }
                }));
        callbacks.add(meter.counterBuilder(MetricNames.TAKEOVERS)
                .setDescription("Executions that took over a claim whose lease had ended")
                .setUnit("{call}")
                .buildWithCallback(m -> {
                    for (OperationCounters c : metrics.counters()) {
                        m.record(c.takeovers.sum(), Attributes.of(OPERATION, c.name));
                    }
                }));
        callbacks.add(meter.counterBuilder(MetricNames.RELEASES)
                .setDescription("Claims given back so that the next call runs, by cause")
                .setUnit("{claim}")
                .buildWithCallback(m -> {
                    for (OperationCounters c : metrics.counters()) {
                        for (ReleaseCause cause : ReleaseCause.values()) {
                            m.record(
                                    c.releases[cause.ordinal()].sum(),
                                    Attributes.of(OPERATION, c.name, CAUSE, OperationCounters.causeTag(cause)));
                        }
                    }
                }));
        callbacks.add(meter.counterBuilder(MetricNames.UNSTORED)
                .setDescription("Executions whose outcome could not be stored, by reason")
                .setUnit("{call}")
                .buildWithCallback(m -> {
                    for (OperationCounters c : metrics.counters()) {
                        for (int i = 0; i < MetricNames.UNSTORED_REASONS.length; i++) {
                            m.record(
                                    c.unstored[i].sum(),
                                    Attributes.of(OPERATION, c.name, REASON, MetricNames.UNSTORED_REASONS[i]));
                        }
                    }
                }));
        callbacks.add(meter.counterBuilder(MetricNames.STORE_FAILURES)
                .setDescription("Idempotency store calls that failed, by primitive")
                .setUnit("{call}")
                .buildWithCallback(m -> {
                    for (StorePrimitive p : StorePrimitive.values()) {
                        m.record(metrics.latency(p).failures.sum(), primitives[p.ordinal()]);
                    }
                }));
        callbacks.add(meter.gaugeBuilder(MetricNames.MEMORY_RECORDS)
                .setDescription("Records the memory idempotency store holds")
                .setUnit("{record}")
                .ofLongs()
                .buildWithCallback(m -> {
                    if (metrics.memoryStore()) {
                        m.record(metrics.memoryRecords().orElse(0));
                    }
                }));
    }

    /** The bridge on MicroProfile Telemetry's OpenTelemetry bean, or else on the global instance. */
    static MetricsBridge create(Instance<Object> lookup, IdempotencyMetrics metrics) {
        Instance<OpenTelemetry> bean = lookup.select(OpenTelemetry.class);
        OpenTelemetry otel = bean.isResolvable() ? bean.get() : GlobalOpenTelemetry.get();
        return new OpenTelemetryBridge(otel.getMeter(SCOPE), metrics);
    }

    @Override
    public OperationEvents operation(OperationCounters counters) {
        return OperationEvents.NONE;
    }

    @Override
    public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {
        duration.record(nanos / NANOS_PER_SECOND, primitives[primitive.ordinal()]);
    }

    @Override
    public void close() {
        for (AutoCloseable c : callbacks) {
            try {
                c.close();
            } catch (Exception e) {
                // The meter provider is shutting down with the application: nothing to release.
            }
        }
    }
}
