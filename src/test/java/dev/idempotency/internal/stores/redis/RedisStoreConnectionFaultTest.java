package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.stores.TcpProxy;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Redis store on the machine's Redis through a TCP proxy that cuts the store's connections: a
 * completion that meets the cut lands once the network heals, and the store serves again within
 * seconds of the heal.
 */
@Tag("services")
class RedisStoreConnectionFaultTest {

    private static final String PREFIX =
            "idempotency-faults-" + ProcessHandle.current().pid() + ":";
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final byte[] OUTCOME = {4, 2};

    private TcpProxy proxy;
    private RedisIdempotencyStore store;

    @BeforeEach
    void start() throws Exception {
        RedisServers.requireMachineRedis();
        proxy = new TcpProxy(RedisServers.MACHINE_PORT);
        store = RedisStores.start(ConfigLookup.of(Map.of(
                RedisStoreSettings.URI,
                "redis://127.0.0.1:" + proxy.port(),
                RedisStoreSettings.KEY_PREFIX,
                PREFIX,
                RedisStoreSettings.TIMEOUT,
                "PT1S",
                RedisStoreSettings.CONNECT_TIMEOUT,
                "PT1S")));
    }

    @AfterEach
    void stop() {
        proxy.heal();
        for (byte[] k : store.client().keys((PREFIX + "*").getBytes(StandardCharsets.UTF_8))) {
            store.client().del(k);
        }
        store.close();
        proxy.close();
    }

    @Test
    void aCompletionThatMeetsACutLandsWhenTheNetworkHeals() throws Exception {
        String key = key("cut");
        assertThat(store.claim(key, "owner", "fp", LEASE).claimed()).isTrue();

        proxy.cut();
        CompletableFuture<Boolean> completion =
                CompletableFuture.supplyAsync(() -> store.complete(key, "owner", OUTCOME, Duration.ofHours(1)));
        Thread.sleep(3000);
        assertThat(completion).as("the completion waits out the cut").isNotDone();
        proxy.heal();

        assertThat(result(completion, Duration.ofSeconds(30))).isTrue();
        ClaimResult duplicate = store.claim(key, "duplicate", "fp", LEASE);
        assertThat(duplicate.claimed()).isFalse();
        assertThat(duplicate.record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(duplicate.record().outcome()).containsExactly(OUTCOME);
    }

    @Test
    void aNewClaimSucceedsWithinSecondsOfAHeal() throws Exception {
        for (int i = 0; i < 4; i++) {
            store.claim(key("warm-" + i), "owner", "fp", LEASE); // connections in the pool to be cut
        }
        proxy.cut();
        Thread.sleep(2000);
        proxy.heal();

        long healed = System.nanoTime();
        String key = key("after-heal");
        RuntimeException last = null;
        while (System.nanoTime() - healed < Duration.ofSeconds(5).toNanos()) {
            try {
                assertThat(store.claim(key, "owner", "fp", LEASE).claimed()).isTrue();
                last = null;
                break;
            } catch (RuntimeException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        assertThat(last).as("the last claim's failure 5 s after the heal").isNull();
    }

    private static <T> T result(CompletableFuture<T> f, Duration limit) throws Exception {
        try {
            return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no answer within " + limit.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new AssertionError("the call failed: " + e.getCause(), e.getCause());
        }
    }

    private static String key(String name) {
        return Hashing.sha256Hex(name + "-" + System.nanoTime());
    }
}
