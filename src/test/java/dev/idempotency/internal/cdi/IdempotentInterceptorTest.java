package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.spi.Races;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/** The interceptor in Weld, on the memory store: every rule of @Idempotent, observed on real calls. */
@EnableWeld
class IdempotentInterceptorTest {

    @WeldSetup
    // 24 callers race for one key below: every one of them may wait (the default bound is 16 per key).
    WeldInitiator weld = WeldBoot.initiator(Map.of("idempotency.wait.max-per-key", "24"), Orders.class);

    @Inject
    Orders orders;

    private static String key() {
        return "k-" + System.nanoTime();
    }

    @Test
    void aGenericListIsReplayedEqualWithoutRunningAgain() {
        String id = key();
        List<OrderLine> lines = List.of(new OrderLine("book", 2, "12.50"), new OrderLine("pen", 1, "1.20"));
        List<OrderLine> first = orders.place(id, lines);
        List<OrderLine> again = orders.place(id, lines);
        assertThat(again).isEqualTo(first).hasSize(3);
        assertThat(again.get(0)).isInstanceOf(OrderLine.class);
        assertThat(again.get(2).sku).isEqualTo("shipping-run-1");
        assertThat(orders.runs("place", id)).isEqualTo(1);
    }

    @Test
    void voidMethodsRunOnce() {
        String id = key();
        orders.notifyCustomer(id);
        orders.notifyCustomer(id);
        orders.notifyCustomer(id);
        assertThat(orders.runs("notify", id)).isEqualTo(1);
    }

    @Test
    void aCheckedBusinessExceptionIsKeptAndReplayed() {
        String id = key();
        assertThatThrownBy(() -> orders.pay(id, "decline"))
                .isExactlyInstanceOf(PaymentDeclined.class)
                .hasMessage("insufficient funds (run 1)");
        assertThatThrownBy(() -> orders.pay(id, "decline"))
                .isExactlyInstanceOf(PaymentDeclined.class)
                .hasMessage("insufficient funds (run 1)");
        assertThat(orders.runs("pay", id)).isEqualTo(1);
    }

    @Test
    void anUncheckedExceptionReleasesTheKeySoTheRetryRuns() throws Exception {
        String id = key();
        assertThatThrownBy(() -> orders.pay(id, "crash")).isInstanceOf(IllegalStateException.class);
        assertThat(orders.pay(id, "crash")).isEqualTo("paid-run-2");
        assertThat(orders.pay(id, "crash")).isEqualTo("paid-run-2");
        assertThat(orders.runs("pay", id)).isEqualTo(2);
    }

    @Test
    void keepOnAndReleaseOnOverrideTheDefaults() throws Exception {
        String invalid = key();
        assertThatThrownBy(() -> orders.custom(invalid, "invalid")).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> orders.custom(invalid, "invalid"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run 1");
        assertThat(orders.runs("custom", invalid))
                .as("unchecked but in keepOn: kept")
                .isEqualTo(1);

        String flaky = key();
        assertThatThrownBy(() -> orders.custom(flaky, "transient")).isExactlyInstanceOf(TransientFailure.class);
        assertThat(orders.custom(flaky, "transient"))
                .as("checked but in releaseOn: released")
                .isEqualTo("custom-run-2");
    }

    @Test
    void aKeyReusedWithOtherArgumentsIsAMismatch() {
        String serial = key();
        assertThat(orders.settle(new Repayment("BANK", serial, new BigDecimal("100.00"))))
                .isEqualTo("settled-run-1");
        assertThat(orders.settle(new Repayment("BANK", serial, new BigDecimal("100"))))
                .as("the same amount written differently is the same argument")
                .isEqualTo("settled-run-1");
        assertThatThrownBy(() -> orders.settle(new Repayment("BANK", serial, new BigDecimal("250.00"))))
                .isInstanceOf(IdempotencyKeyMismatchException.class)
                .hasMessageContaining("repayments.settle")
                .hasMessageNotContaining(serial);
        assertThat(orders.settle(new Repayment("CARD", serial, new BigDecimal("250.00"))))
                .as("another source is another key")
                .isEqualTo("settled-run-2");
    }

    @Test
    void withoutKeyAnnotationsTheArgumentsAreTheKey() {
        assertThat(orders.byArgs("acc-" + key(), 100)).isEqualTo(1);
        String acc = "acc-" + key();
        assertThat(orders.byArgs(acc, 100)).isEqualTo(1);
        assertThat(orders.byArgs(acc, 100)).isEqualTo(1);
        assertThat(orders.byArgs(acc, 200)).isEqualTo(1);
        assertThat(orders.runs("byArgs", acc + "/100")).isEqualTo(1);
    }

    @Test
    void aMissingRequiredKeyFailsAndAMissingOptionalKeyRunsUnguarded() {
        assertThatThrownBy(() -> orders.required(null))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("orders.required")
                .hasMessageContaining("parameter 'id'");
        assertThatThrownBy(() -> orders.required("  ")).isInstanceOf(IdempotencyKeyMissingException.class);
        assertThat(orders.runs("required", null)).isZero();
        orders.optional(null);
        orders.optional(null);
        assertThat(orders.runs("optional", null)).isEqualTo(2);
    }

    @Test
    void rejectUnderRealConcurrencyRunsOncePerKey() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = key();
            List<Object> outcomes = race(24, () -> orders.slowReject(id));
            assertThat(orders.runs("slowReject", id)).isEqualTo(1);
            assertThat(outcomes)
                    .allSatisfy(o -> assertThat(o).isIn("reject-run-1", IdempotencyInProgressException.class));
            assertThat(outcomes).contains("reject-run-1");
            assertThat(orders.slowReject(id)).isEqualTo("reject-run-1");
        }
    }

    @Test
    void waitUnderRealConcurrencyGivesEveryCallerTheFirstOutcome() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = key();
            List<Object> outcomes = race(24, () -> orders.slowWait(id));
            assertThat(orders.runs("slowWait", id)).isEqualTo(1);
            assertThat(outcomes).hasSize(24).containsOnly("wait-run-1");
        }
    }

    /** Races n callers released at one instant; each outcome is the result, or the exception's class. */
    static List<Object> race(int n, java.util.concurrent.Callable<Object> call) throws Exception {
        Races gate = new Races(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Object>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    gate.await();
                    try {
                        return call.call();
                    } catch (RuntimeException e) {
                        return e.getClass();
                    }
                }));
            }
            List<Object> outcomes = new ArrayList<>();
            for (Future<Object> f : futures) {
                outcomes.add(f.get(1, TimeUnit.MINUTES));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }
}
