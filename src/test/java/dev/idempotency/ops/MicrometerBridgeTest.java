package dev.idempotency.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.ops.metrics.IdempotencyMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The Micrometer bridge on a real {@link SimpleMeterRegistry}: the scripted sequence read back from the
 * documented meters (docs/operations.md, "Metrics"), the store calls' timer, and every meter gone when the
 * application stops, on the {@code MeterRegistry} bean and on {@link Metrics#globalRegistry}.
 */
class MicrometerBridgeTest {

    private static final List<String> OUTCOMES =
            List.of("executed", "replayed", "in_progress", "mismatch", "key_missing", "store_unavailable");

    @Test
    void aScriptedSequenceIsCountedByOutcomeOnTheMeterRegistryBean() throws Exception {
        SimpleMeterRegistry registry = freshRegistry();
        try (WeldContainer c =
                OpsWeld.weld(Map.of(), Charges.class, MicrometerProducer.class).initialize()) {
            Script.run(c.select(Charges.class).get(), "mm" + System.nanoTime());

            assertThat(calls(registry, Charges.OPERATION))
                    .as("idempotency.calls of %s by outcome", Charges.OPERATION)
                    .containsExactlyEntriesOf(counts(2, 3, 1, 1, 0, 0));
            assertThat(registry.get("idempotency.takeovers")
                            .tag("operation", Charges.OPERATION)
                            .functionCounter()
                            .count())
                    .isZero();
            assertThat(registry.get("idempotency.releases")
                            .tag("operation", Charges.OPERATION)
                            .functionCounters())
                    .extracting(m -> m.getId().getTag("cause"))
                    .containsExactlyInAnyOrder("exception", "rollback", "status", "operator", "other");
            assertThat(registry.get("idempotency.outcomes.unstored")
                            .tag("operation", Charges.OPERATION)
                            .functionCounters())
                    .extracting(m -> m.getId().getTag("reason"))
                    .containsExactlyInAnyOrder("lease_lost", "store_failed");
            assertThat(registry.get("idempotency.memory.records").gauge().value())
                    .isEqualTo(2.0);
            // The memory store's calls are not timed (IdempotencyMetrics.timesStoreCalls); the timers exist.
            assertThat(registry.get("idempotency.store.duration").timers())
                    .extracting(m -> m.getId().getTag("primitive"))
                    .containsExactlyInAnyOrder("claim", "read", "complete", "release", "delete", "renew");
            assertThat(registry.get("idempotency.store.duration").timers())
                    .allSatisfy(t -> assertThat(t.count()).isZero());
        }
        assertThat(idempotencyMeters(registry))
                .as("meters left in the registry after the application stopped")
                .isEmpty();
    }

    @Test
    void storeCallsAreTimedOnAStoreThatIsNotTheMemoryStore() throws Exception {
        SimpleMeterRegistry registry = freshRegistry();
        try (WeldContainer c = OpsWeld.weld(
                        Map.of("idempotency.store", "switchable"),
                        Charges.class,
                        BrokenStore.class,
                        MicrometerProducer.class)
                .initialize()) {
            Script.run(c.select(Charges.class).get(), "mt" + System.nanoTime());

            // 2 executions + 1 conflict + 3 replays + 1 mismatch = 7 claims; 2 completions.
            Timer claims = registry.get("idempotency.store.duration")
                    .tag("primitive", "claim")
                    .timer();
            assertThat(claims.count()).isEqualTo(7);
            assertThat(claims.totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.get("idempotency.store.duration")
                            .tag("primitive", "complete")
                            .timer()
                            .count())
                    .isEqualTo(2);
            assertThat(registry.get("idempotency.store.failures")
                            .tag("primitive", "claim")
                            .functionCounter()
                            .count())
                    .isZero();
            assertThat(registry.get("idempotency.memory.records").gauge().value())
                    .as("the gauge on another store")
                    .isZero();
            assertThat(calls(registry, Charges.OPERATION)).containsExactlyEntriesOf(counts(2, 3, 1, 1, 0, 0));
        }
        assertThat(idempotencyMeters(registry)).isEmpty();
    }

    /** Without a {@code MeterRegistry} bean the meters go to the global registry, and leave it on close. */
    @Test
    void withoutARegistryBeanTheGlobalRegistryIsUsedAndCleared() throws Exception {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        Metrics.globalRegistry.add(child);
        try {
            try (WeldContainer c = OpsWeld.weld(Map.of(), Charges.class).initialize()) {
                Charges charges = c.select(Charges.class).get();
                String key = "mg" + System.nanoTime();
                charges.charge(key, 1);
                charges.charge(key, 1);
                assertThat(c.select(IdempotencyMetrics.class).get().enabled()).isTrue();
                assertThat(calls(child, Charges.OPERATION)).containsExactlyEntriesOf(counts(1, 1, 0, 0, 0, 0));
            }
            assertThat(idempotencyMeters(Metrics.globalRegistry))
                    .as("meters left in the global registry after the application stopped")
                    .isEmpty();
            assertThat(idempotencyMeters(child))
                    .as("meters left in a registry of the global one after the application stopped")
                    .isEmpty();
        } finally {
            Metrics.globalRegistry.remove(child);
        }
    }

    @Test
    void disabledMetricsRegisterNothing() throws Exception {
        SimpleMeterRegistry registry = freshRegistry();
        try (WeldContainer c = OpsWeld.weld(
                        Map.of("idempotency.metrics.enabled", "false"), Charges.class, MicrometerProducer.class)
                .initialize()) {
            c.select(Charges.class).get().charge("mm-off", 1);
            assertThat(idempotencyMeters(registry)).isEmpty();
        }
    }

    private static SimpleMeterRegistry freshRegistry() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerProducer.registry = registry;
        return registry;
    }

    /** The {@code idempotency.calls} counts of one operation, by outcome, in the documented order. */
    private static Map<String, Double> calls(MeterRegistry registry, String operation) {
        Map<String, Double> byOutcome = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            FunctionCounter counter = registry.find("idempotency.calls")
                    .tags("operation", operation, "outcome", outcome)
                    .functionCounter();
            byOutcome.put(outcome, counter == null ? null : counter.count());
        }
        return byOutcome;
    }

    private static Map<String, Double> counts(long... perOutcome) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < OUTCOMES.size(); i++) {
            m.put(OUTCOMES.get(i), (double) perOutcome[i]);
        }
        return m;
    }

    private static List<String> idempotencyMeters(MeterRegistry registry) {
        return registry.getMeters().stream()
                .map(Meter::getId)
                .filter(id -> id.getName().startsWith("idempotency."))
                .map(id -> id.getName() + id.getTags())
                .toList();
    }
}
