package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.List;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** MicroProfile Config reaching the interceptor at all three levels, and invalid setups failing deployment. */
class IdempotencyConfigTest {

    private static final String TUNABLE = Tunable.class.getName();

    @AfterEach
    void resetConfig() {
        TestConfig.use(Map.of());
    }

    private static String key() {
        return "k-" + System.nanoTime();
    }

    @Test
    void overridesApplyAtMethodOverClassOverGlobalLevel() throws Exception {
        Map<String, String> config = Map.of(
                "Idempotent/onInProgress",
                "WAIT",
                TUNABLE + "/Idempotent/onInProgress",
                "REJECT",
                TUNABLE + "/alpha/Idempotent/onInProgress",
                "WAIT",
                TUNABLE + "/beta/Idempotent/ttl",
                "PT0.4S",
                "Idempotent/required",
                "true");
        try (WeldContainer c =
                WeldBoot.weld(config, Tunable.class, Untuned.class).initialize()) {
            Tunable tunable = c.select(Tunable.class).get();
            Untuned untuned = c.select(Untuned.class).get();

            String a = key();
            assertThat(IdempotentInterceptorTest.race(12, () -> tunable.alpha(a)))
                    .as("method level WAIT beats class level REJECT")
                    .containsOnly("alpha-run-1");

            String b = key();
            assertThat(IdempotentInterceptorTest.race(12, () -> tunable.beta(b)))
                    .as("class level REJECT beats global WAIT")
                    .contains(IdempotencyInProgressException.class);

            String g = key();
            assertThat(IdempotentInterceptorTest.race(12, () -> untuned.gamma(g)))
                    .as("global WAIT beats the annotation's REJECT")
                    .containsOnly("gamma-run-1");

            String t = key();
            assertThat(tunable.beta(t)).isEqualTo("beta-run-1");
            assertThat(tunable.beta(t)).isEqualTo("beta-run-1");
            Thread.sleep(600);
            assertThat(tunable.beta(t)).as("method level ttl of 0.4 s expired").isEqualTo("beta-run-2");

            assertThatThrownBy(() -> untuned.optional(null))
                    .as("global required=true")
                    .isInstanceOf(IdempotencyKeyMissingException.class);
        }
    }

    @Test
    void aStoreIsSelectedByItsCdiName() {
        try (WeldContainer c = WeldBoot.weld(
                        Map.of("idempotency.store", "counting"), Untuned.class, CountingStore.class)
                .initialize()) {
            Untuned untuned = c.select(Untuned.class).get();
            untuned.optional("x");
            untuned.optional("x");
            assertThat(c.select(CountingStore.class).get().claims()).isEqualTo(2);
        }
    }

    @Test
    void expiredRecordsArePurgedInTheBackgroundAtTheConfiguredInterval() throws Exception {
        Map<String, String> config = Map.of(
                "idempotency.store", "counting",
                "idempotency.purge.interval", "PT0.1S",
                "Idempotent/ttl", "PT0.05S");
        try (WeldContainer c =
                WeldBoot.weld(config, Untuned.class, CountingStore.class).initialize()) {
            CountingStore store = c.select(CountingStore.class).get();
            c.select(Untuned.class).get().optional("x");
            assertThat(store.held()).isEqualTo(1);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (store.purges() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(store.purges())
                    .as("purge batches within 10 s at a 0.1 s interval")
                    .isGreaterThanOrEqualTo(3);
            assertThat(store.held())
                    .as("the expired record was deleted, not just hidden")
                    .isZero();
        }
    }

    @Test
    void theInterceptorPriorityIsConfigurable() {
        try (WeldContainer c =
                WeldBoot.weld(Map.of(), Tunable.class, TracingInterceptor.class).initialize()) {
            Tunable tunable = c.select(Tunable.class).get();
            TracingInterceptor.CALLS.set(0);
            String k = key();
            tunable.traced(k);
            tunable.traced(k);
            assertThat(TracingInterceptor.CALLS.get())
                    .as("at the default priority 100 a replay returns before inner interceptors run")
                    .isEqualTo(1);
        }
        try (WeldContainer c = WeldBoot.weld(
                        Map.of("idempotency.interceptor.priority", "3000"), Tunable.class, TracingInterceptor.class)
                .initialize()) {
            Tunable tunable = c.select(Tunable.class).get();
            TracingInterceptor.CALLS.set(0);
            String k = key();
            tunable.traced(k);
            tunable.traced(k);
            assertThat(TracingInterceptor.CALLS.get())
                    .as("at priority 3000 the tracing interceptor (1000) runs outside, on every call")
                    .isEqualTo(2);
        }
    }

    @Test
    void theMemoryStoreRefusesNewKeysBeyondItsConfiguredBound() {
        try (WeldContainer c = WeldBoot.weld(
                        Map.of("idempotency.memory.max-entries", "2", "idempotency.memory.operation-share", "1"),
                        Orders.class)
                .initialize()) {
            Orders orders = c.select(Orders.class).get();
            String a = key();
            orders.notifyCustomer(a);
            orders.notifyCustomer(key());
            String refused = key();
            assertThatThrownBy(() -> orders.notifyCustomer(refused))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("orders.notify")
                    .hasMessageContaining("idempotency.memory.max-entries=2");
            assertThat(orders.runs("notify", refused))
                    .as("the refused call did not run")
                    .isZero();
            orders.notifyCustomer(a);
            assertThat(orders.runs("notify", a)).as("a held key still replays").isEqualTo(1);
        }
    }

    @Test
    void aFloodOfNewKeysOnOneMethodLeavesTheMemoryStoreToTheOthers() {
        try (WeldContainer c = WeldBoot.weld(Map.of("idempotency.memory.max-entries", "4"), Orders.class)
                .initialize()) {
            Orders orders = c.select(Orders.class).get();
            orders.notifyCustomer(key());
            orders.notifyCustomer(key());
            String refused = key();
            assertThatThrownBy(() -> orders.notifyCustomer(refused))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("'orders.notify' holds its share")
                    .hasMessageContaining("idempotency.memory.operation-share=0.5");
            assertThat(orders.runs("notify", refused))
                    .as("the refused call did not run")
                    .isZero();
            String other = key();
            assertThat(orders.required(other)).isEqualTo("required-run-1");
            assertThat(orders.optional(key())).isEqualTo("optional-run-1");
        }
    }

    @Test
    void aBadRetryHintFailsTheDeploymentNamingTheKey() {
        assertDeploymentFails(
                Map.of("idempotency.retry-after", "1s"), List.of(Untuned.class), "idempotency.retry-after");
    }

    @Test
    void aBadMemoryLimitFailsTheDeploymentNamingTheKey() {
        assertDeploymentFails(
                Map.of("idempotency.memory.max-bytes", "64MB"), List.of(Untuned.class), "idempotency.memory.max-bytes");
    }

    @Test
    void anUnknownStoreFailsTheDeploymentListingTheChoices() {
        assertDeploymentFails(
                Map.of("idempotency.store", "cassandra"),
                List.of(Untuned.class),
                "idempotency.store",
                "'cassandra'",
                "available: [memory]");
    }

    @Test
    void aBadDurationFailsTheDeploymentNamingMethodAndKey() {
        assertDeploymentFails(
                Map.of(TUNABLE + "/beta/Idempotent/ttl", "24h"),
                List.of(Tunable.class),
                TUNABLE + "#beta",
                TUNABLE + "/beta/Idempotent/ttl",
                "PT24H");
    }

    @Test
    void aBadGlobalSettingFailsTheDeployment() {
        assertDeploymentFails(
                Map.of("idempotency.purge.interval", "soon"), List.of(Untuned.class), "idempotency.purge.interval");
    }

    @Test
    void aBadKeyThatIsReadOnlyAfterStartupStillFailsTheDeployment() {
        for (String key : List.of(
                "idempotency.keep-alive.enabled",
                "idempotency.keep-alive.max-duration",
                "idempotency.metrics.enabled",
                "idempotency.inspection.http.enabled",
                "idempotency.inspection.jmx.repair.enabled")) {
            assertDeploymentFails(Map.of(key, "soon"), List.of(Untuned.class), "Config key '" + key + "' is 'soon'");
        }
    }

    @Test
    void aFutureReturningMethodFailsTheDeploymentNamingIt() {
        assertDeploymentFails(
                Map.of(), List.of(FutureService.class), FutureService.class.getName() + "#later", "Future");
    }

    private static void assertDeploymentFails(Map<String, String> config, List<Class<?>> beans, String... phrases) {
        assertThatThrownBy(() -> {
                    try (WeldContainer c = WeldBoot.weld(config, beans.toArray(Class<?>[]::new))
                            .initialize()) {
                        c.isRunning();
                    }
                })
                .isInstanceOf(DeploymentException.class)
                .satisfies(e -> {
                    StringBuilder all = new StringBuilder();
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        all.append(t.getMessage()).append('\n');
                    }
                    for (String phrase : phrases) {
                        assertThat(all.toString()).contains(phrase);
                    }
                });
    }
}
