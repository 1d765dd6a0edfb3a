package dev.idempotency.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.internal.core.KeepAlive;
import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.RecordedEvents;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a consumer's deliveries report to the metrics, under the name {@code message:<consumer>}. */
class MessageEventsTest {

    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    private OperationEvents recording(String name) {
        RecordedEvents recorded = new RecordedEvents();
        seen.put(name, recorded.events);
        return recorded;
    }

    private final MessageDeduplicator messages = new MessageDeduplicator(
            new MemoryIdempotencyStore(),
            new MessageSettings(2, Duration.ofHours(1), Duration.ofMinutes(1)),
            failed -> {},
            KeepAlive.OFF,
            "",
            this::recording);

    @Test
    void eachDeliveryIsCountedOnceByWhatHappenedToIt() throws Exception {
        assertThat(messages.handle("billing", "m-1", () -> {})).isEqualTo(Delivery.PROCESSED);
        assertThat(messages.handle("billing", "m-1", () -> {})).isEqualTo(Delivery.DUPLICATE);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> messages.handle("billing", "poison", () -> {
                        throw new IllegalStateException("bad");
                    }))
                    .isInstanceOf(IllegalStateException.class);
        }
        assertThat(messages.handle("billing", "poison", () -> {})).isEqualTo(Delivery.SKIPPED_FAILED);

        assertThat(seen.get("message:billing"))
                .containsExactly(
                        "executed",
                        "replayed",
                        "executed",
                        "released:exception",
                        "executed",
                        "released:exception",
                        "replayed");
        assertThat(seen).containsOnlyKeys("message:billing");
    }

    @Test
    void aDeliveryDuringAnotherIsCountedInProgress() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Delivery> first = CompletableFuture.supplyAsync(() -> {
            try {
                return messages.handle("audit", "m-2", 2, Settlement.IMMEDIATE, () -> {
                    running.countDown();
                    if (!release.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("never released");
                    }
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> messages.handle("audit", "m-2", () -> {}))
                .isInstanceOf(IdempotencyInProgressException.class);
        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(Delivery.PROCESSED);
        assertThat(seen.get("message:audit")).containsExactly("executed", "in_progress");
    }

    @Test
    void logLinesNameAMessageByItsHashAndItsBrokerId() {
        assertThat(MessageDeduplicator.named("0123456789abcdef", "serial-42")).isEqualTo("0123456789ab (id serial-42)");
        assertThat(MessageDeduplicator.named("0123456789abcdef", "x".repeat(500)))
                .hasSize("0123456789ab (id )".length() + 100);
    }
}
