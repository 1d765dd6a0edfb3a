package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.InProgressPolicy;
import dev.idempotency.internal.stores.redis.RedisIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisServers;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStores;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.DelegatingStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one Redis, each its own store and engine: a duplicate waiting on node B for a call
 * running on node A is woken by the notice that A's completion (or release) publishes, instead of
 * polling Redis every 50 ms.
 */
class RedisSettlementNoticeTest {

    private static final String PREFIX =
            "idempotency-notice-" + ProcessHandle.current().pid() + ":";
    private static final OperationPolicy WAIT = new OperationPolicy(
            "op", Duration.ofHours(1), Duration.ofSeconds(30), InProgressPolicy.WAIT, ExceptionPolicy.DEFAULT, false);

    private static RedisIdempotencyStore nodeA;
    private static RedisIdempotencyStore nodeB;

    @BeforeAll
    static void start() {
        RedisServers.requireMachineRedis();
        nodeA = RedisStores.start(ConfigLookup.of(Map.of(RedisStoreSettings.KEY_PREFIX, PREFIX)));
        nodeB = RedisStores.start(ConfigLookup.of(Map.of(RedisStoreSettings.KEY_PREFIX, PREFIX)));
    }

    @AfterAll
    static void stop() {
        for (byte[] k : nodeA.client().keys((PREFIX + "*").getBytes(StandardCharsets.UTF_8))) {
            nodeA.client().del(k);
        }
        nodeA.close();
        nodeB.close();
    }

    @Test
    void aWaiterOnAnotherNodeIsWokenByTheCompletionsNotice() throws Exception {
        AtomicInteger claims = new AtomicInteger();
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(new DelegatingStore(nodeB) {
            @Override
            public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
                claims.incrementAndGet();
                return super.claim(key, owner, fingerprint, lease);
            }
        });
        List<Long> latencies = new ArrayList<>();
        List<Integer> looks = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "notice-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            int before = claims.get();
            CompletableFuture<Long> replayedAt = CompletableFuture.supplyAsync(() -> {
                Admission replay = b.begin(WAIT, key, "fp");
                long at = System.nanoTime();
                assertThat(replay).isInstanceOf(Admission.Replay.class);
                return at;
            });
            Thread.sleep(1300);
            looks.add(claims.get() - before);
            long completed = System.nanoTime();
            assertThat(a.complete(owned, new byte[] {7})).isTrue();
            latencies.add(TimeUnit.NANOSECONDS.toMillis(replayedAt.get(30, TimeUnit.SECONDS) - completed));
        }
        List<Long> sorted = latencies.stream().sorted().toList();
        assertThat(sorted.get(2))
                .as(
                        "median ms from the completion on A to the replay on B (without the notice: about 220); all: %s",
                        latencies)
                .isLessThan(50);
        assertThat(looks)
                .as("B's looks at Redis in 1.3 s of waiting (polling every 50 ms made about 30)")
                .allSatisfy(n -> assertThat(n).isBetween(1, 14));
    }

    @Test
    void aReleaseOnAnotherNodeWakesTheWaiterWhichThenOwnsTheKey() throws Exception {
        IdempotencyEngine a = new IdempotencyEngine(nodeA);
        IdempotencyEngine b = new IdempotencyEngine(nodeB);
        List<Long> latencies = new ArrayList<>();
        for (int trial = 0; trial < 5; trial++) {
            RecordKey key = RecordKey.of("op", "", "released-" + UUID.randomUUID());
            Admission.Owned owned = (Admission.Owned) a.begin(WAIT, key, "fp");
            CompletableFuture<Admission> next = CompletableFuture.supplyAsync(() -> b.begin(WAIT, key, "fp"));
            Thread.sleep(1300);
            long released = System.nanoTime();
            assertThat(a.release(owned)).isTrue();
            assertThat(next.get(30, TimeUnit.SECONDS)).isInstanceOf(Admission.Owned.class);
            latencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released));
        }
        assertThat(latencies.stream().sorted().toList().get(2))
                .as("median ms from the release on A to B owning the key; all: %s", latencies)
                .isLessThan(50);
    }
}
