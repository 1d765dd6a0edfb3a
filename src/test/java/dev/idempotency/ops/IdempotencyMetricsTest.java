package dev.idempotency.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.ops.metrics.IdempotencyMetrics;
import dev.idempotency.ops.metrics.OperationMetrics;
import dev.idempotency.ops.metrics.StoreMetrics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The metrics of a scripted sequence, read back through every channel: the CDI API, the JMX MXBeans
 * and the real OpenTelemetry SDK (MicroProfile Metrics is read on Payara, in OpsIT).
 */
class IdempotencyMetricsTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aScriptedSequenceIsCountedExactlyInEveryChannel() throws Exception {
        try (WeldContainer c =
                OpsWeld.weld(Map.of(), Charges.class, OtelProducer.class).initialize()) {
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            Script.run(c.select(Charges.class).get(), "m" + System.nanoTime());

            OperationMetrics m = metrics.find(Charges.OPERATION).orElseThrow();
            assertThat(m.executions()).isEqualTo(2);
            assertThat(m.replays()).isEqualTo(3);
            assertThat(m.inProgressRefusals()).isEqualTo(1);
            assertThat(m.mismatches()).isEqualTo(1);
            assertThat(m.missingKeys()).isZero();
            assertThat(m.takeovers()).isZero();
            assertThat(m.outcomesNotStored()).isZero();

            ObjectName op = new ObjectName(
                    "dev.idempotency:type=Operation,application=\"default\",name=\"" + Charges.OPERATION + "\"");
            assertThat(JMX.getAttribute(op, "Executions")).isEqualTo(2L);
            assertThat(JMX.getAttribute(op, "Replays")).isEqualTo(3L);
            assertThat(JMX.getAttribute(op, "InProgressRefusals")).isEqualTo(1L);
            assertThat(JMX.getAttribute(op, "Mismatches")).isEqualTo(1L);
            ObjectName store = new ObjectName("dev.idempotency:type=Store,application=\"default\"");
            assertThat(JMX.getAttribute(store, "MemoryRecords")).isEqualTo(2L);
            assertThat((String) JMX.getAttribute(store, "Store")).endsWith("MemoryIdempotencyStore");

            // The memory store's calls are not timed: two clock reads would cost as much as the call.
            assertThat(metrics.store()).allSatisfy(s -> assertThat(s.calls()).isZero());

            Collection<MetricData> otel = OtelProducer.READER.collectAllMetrics();
            assertThat(otelCount(otel, "idempotency.calls", "executed")).isEqualTo(2);
            assertThat(otelCount(otel, "idempotency.calls", "replayed")).isEqualTo(3);
            assertThat(otelCount(otel, "idempotency.calls", "in_progress")).isEqualTo(1);
            assertThat(otelCount(otel, "idempotency.calls", "mismatch")).isEqualTo(1);
        }
        assertThat(JMX.queryNames(new ObjectName("dev.idempotency:*"), null))
                .as("the MBeans leave with the application")
                .isEmpty();
    }

    @Test
    void storeCallsAreTimedOnAStoreThatIsNotTheMemoryStore() throws Exception {
        long claimsBefore = otelClaimCount(OtelProducer.READER.collectAllMetrics());
        try (WeldContainer c = OpsWeld.weld(
                        Map.of("idempotency.store", "switchable"), Charges.class, BrokenStore.class, OtelProducer.class)
                .initialize()) {
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            Script.run(c.select(Charges.class).get(), "t" + System.nanoTime());

            // 2 executions + 1 conflict + 3 replays + 1 mismatch = 7 claims; 2 completions.
            StoreMetrics claims = metrics.store().stream()
                    .filter(s -> s.primitive().equals("claim"))
                    .findFirst()
                    .orElseThrow();
            assertThat(claims.calls()).isEqualTo(7);
            assertThat(claims.failures()).isZero();
            assertThat(claims.maxNanos()).isPositive();
            StoreMetrics completions = metrics.store().stream()
                    .filter(s -> s.primitive().equals("complete"))
                    .findFirst()
                    .orElseThrow();
            assertThat(completions.calls()).isEqualTo(2);
            assertThat(metrics.memoryRecords()).isEmpty();
            assertThat(otelClaimCount(OtelProducer.READER.collectAllMetrics()) - claimsBefore)
                    .isEqualTo(7);
        }
    }

    /** The keep-alive's renewals are timed as the primitive {@code renew}. */
    @Test
    void renewalsAreTimed() throws Exception {
        try (WeldContainer c = OpsWeld.weld(
                        Map.of(
                                "idempotency.store",
                                "switchable",
                                Charges.class.getName() + "/charge/Idempotent/lease",
                                "PT0.3S"),
                        Charges.class,
                        BrokenStore.class)
                .initialize()) {
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            Charges charges = c.select(Charges.class).get();
            java.util.concurrent.CountDownLatch running = charges.hold();
            java.util.concurrent.CompletableFuture<String> call =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return charges.charge("renewed-" + System.nanoTime(), 1);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
            assertThat(running.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            // Renewed every 100 ms: wait for three renewals, 10 s at most.
            long deadline = System.nanoTime() + 10_000_000_000L;
            long renewals = 0;
            while (renewals < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
                renewals = renewals(metrics);
            }
            charges.let();
            call.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(renewals).as("renew calls timed within 10 s").isGreaterThanOrEqualTo(3);
            assertThat(metrics.store().stream()
                            .filter(s -> s.primitive().equals("renew"))
                            .findFirst()
                            .orElseThrow()
                            .failures())
                    .isZero();
        }
    }

    private static long renewals(IdempotencyMetrics metrics) {
        return metrics.store().stream()
                .filter(s -> s.primitive().equals("renew"))
                .mapToLong(StoreMetrics::calls)
                .sum();
    }

    /** The count of the claim latency histogram (cumulative over the tests of this JVM), 0 if none. */
    private static long otelClaimCount(Collection<MetricData> otel) {
        return otel.stream()
                .filter(d -> d.getName().equals("idempotency.store.duration"))
                .flatMap(d -> d.getHistogramData().getPoints().stream())
                .filter(p -> "claim".equals(p.getAttributes().get(AttributeKey.stringKey("primitive"))))
                .mapToLong(HistogramPointData::getCount)
                .sum();
    }

    @Test
    void disabledMetricsCountNothingAndTimeNothing() throws Exception {
        try (WeldContainer c = OpsWeld.weld(Map.of("idempotency.metrics.enabled", "false"), Charges.class)
                .initialize()) {
            IdempotencyMetrics metrics = c.select(IdempotencyMetrics.class).get();
            Charges charges = c.select(Charges.class).get();
            charges.charge("off-1", 1);
            charges.charge("off-1", 1);
            assertThat(metrics.enabled()).isFalse();
            assertThat(metrics.operations()).isEmpty();
            assertThat(metrics.store()).allSatisfy(s -> assertThat(s.calls()).isZero());
            assertThat(charges.runs()).isEqualTo(1);
        }
    }

    private static long otelCount(Collection<MetricData> data, String name, String outcome) {
        return data.stream()
                .filter(d -> d.getName().equals(name))
                .flatMap(d -> d.getLongSumData().getPoints().stream())
                .filter(p -> Charges.OPERATION.equals(p.getAttributes().get(AttributeKey.stringKey("operation")))
                        && outcome.equals(p.getAttributes().get(AttributeKey.stringKey("outcome"))))
                .mapToLong(LongPointData::getValue)
                .sum();
    }
}
