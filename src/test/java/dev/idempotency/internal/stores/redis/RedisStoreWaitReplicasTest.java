package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ConfigLookup;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * {@code wait-replicas=1} with the only replica paused ({@code kill -STOP}): every one of 64 concurrent
 * claims is refused. The pool hands connections out first-in first-out, so a {@code WAIT} that ran on a
 * connection of its own (not the one that wrote the claim) would find that connection's earlier
 * writes acknowledged and return at once: this test fails unless {@code WAIT} runs on the connection
 * that wrote.
 */
@Tag("services")
class RedisStoreWaitReplicasTest {

    private static final int PRIMARY = TestServices.port(7703);
    private static final int REPLICA = TestServices.port(7704);
    private static final int CALLERS = 64;

    private long pausedPid;

    @AfterEach
    void stop() throws Exception {
        if (pausedPid != 0) {
            signal("CONT", pausedPid);
        }
        RedisServers.stop(REPLICA);
        RedisServers.stop(PRIMARY);
    }

    @Test
    void everyClaimIsRefusedWhileTheOnlyReplicaIsPaused() throws Exception {
        RedisServers.start(PRIMARY);
        RedisServers.start(REPLICA, "--replicaof", "127.0.0.1", String.valueOf(PRIMARY));
        RedisServers.await(Duration.ofSeconds(20), "the replica to be online at the primary", () -> {
            try (Jedis j = new Jedis("127.0.0.1", PRIMARY, 1000)) {
                return j.info("replication").contains("state=online");
            }
        });
        RedisStoreSettings settings = RedisStoreSettings.from(ConfigLookup.of(Map.of(
                RedisStoreSettings.URI, "redis://127.0.0.1:" + PRIMARY,
                RedisStoreSettings.WAIT_REPLICAS, "1",
                RedisStoreSettings.WAIT_TIMEOUT, "PT0.5S")));
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(CALLERS);
        pool.setMaxIdle(CALLERS);
        pool.setLifo(false); // a returned connection goes to the back: the next borrow gets another one
        pool.setJmxEnabled(false);
        RedisClient client = RedisClient.builder()
                .hostAndPort("127.0.0.1", PRIMARY)
                .clientConfig(DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(5000)
                        .build())
                .poolConfig(pool)
                .build();
        try (RedisIdempotencyStore store = new RedisIdempotencyStore(client, settings, Clock.systemUTC(), true)) {
            assertThat(claims(store, "warm"))
                    .as("claims refused while the replica runs")
                    .isZero();
            Thread.sleep(1500); // the replica acknowledges every connection's writes (REPLCONF ACK, 1/s)

            try (Jedis j = new Jedis("127.0.0.1", REPLICA, 1000)) {
                pausedPid = Long.parseLong(j.info("server")
                        .lines()
                        .filter(l -> l.startsWith("process_id:"))
                        .findFirst()
                        .orElseThrow()
                        .substring("process_id:".length())
                        .trim());
            }
            signal("STOP", pausedPid);

            assertThat(claims(store, "paused"))
                    .as("claims refused of " + CALLERS + " while the only replica is paused")
                    .isEqualTo(CALLERS);
        }
    }

    /** Runs {@link #CALLERS} claims of new keys at once; returns how many were refused. */
    private static int claims(RedisIdempotencyStore store, String name) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> refused = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                String key = Hashing.sha256Hex(name + "-" + i + "-" + System.nanoTime());
                refused.add(pool.submit(() -> {
                    start.await();
                    try {
                        store.claim(key, "owner", "fp", Duration.ofMinutes(1));
                        return false;
                    } catch (IdempotencyStoreUnavailableException e) {
                        return true;
                    }
                }));
            }
            start.countDown();
            int n = 0;
            for (Future<Boolean> f : refused) {
                n += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            return n;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS))
                .as("kill -" + signal + " returned")
                .isTrue();
    }
}
