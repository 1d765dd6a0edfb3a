package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.RecordLifecycle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * A claim retried after its first attempt's {@code SET} landed (its answer or its {@code WAIT} lost
 * with the connection) finds its own claim: with {@code wait-replicas=1} it is used only once the
 * replica acknowledges it, as a first attempt's is. A primary and one replica of the test's own,
 * the replica paused with {@code kill -STOP}. The landed first attempt is the claim written directly
 * on the primary, or a first attempt whose {@code WAIT} a short socket timeout cuts.
 */
@Tag("services")
class RedisStoreRetriedClaimTest {

    private static final int PRIMARY = TestServices.port(26000);
    private static final int REPLICA = TestServices.port(26001);
    private static final Duration LEASE = Duration.ofMinutes(1);

    private volatile long pausedPid;

    @BeforeEach
    void startServers() {
        RedisServers.start(PRIMARY);
        RedisServers.start(REPLICA, "--replicaof", "127.0.0.1", String.valueOf(PRIMARY));
        RedisServers.await(Duration.ofSeconds(20), "the replica to be online at the primary", () -> {
            try (Jedis j = new Jedis("127.0.0.1", PRIMARY, 1000)) {
                return j.info("replication").contains("state=online");
            }
        });
    }

    @AfterEach
    void stopServers() throws Exception {
        if (pausedPid != 0) {
            signal("CONT", pausedPid);
        }
        RedisServers.stop(REPLICA);
        RedisServers.stop(PRIMARY);
    }

    @Test
    void aRetriedClaimIsWithdrawnAndRefusedWhileTheReplicaCannotAcknowledgeIt() throws Exception {
        try (RedisIdempotencyStore store = RedisStores.start(settings("PT0.5S", "PT2S"))) {
            // The pooled connection's own writes are acknowledged: a WAIT after a SET NX that wrote
            // nothing would return 1 at once.
            assertThat(store.claim(key(), "warm", "fp", LEASE).claimed())
                    .as("a claim while the replica runs")
                    .isTrue();
            pause();
            String k = key();
            landedFirstAttempt(store, k, "owner");

            assertThatThrownBy(() -> store.claim(k, "owner", "fp", LEASE))
                    .as("the retried claim, which the paused replica cannot acknowledge")
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("0 of the 1 Redis replicas")
                    .hasMessageContaining(RedisStoreSettings.WAIT_REPLICAS);
            try (Jedis primary = new Jedis("127.0.0.1", PRIMARY, 1000)) {
                assertThat(primary.get(store.redisKey(k)))
                        .as("the refused claim was withdrawn, as a first attempt's is")
                        .isNull();
            }
        }
    }

    @Test
    void aRetriedClaimIsAcceptedOnlyOnceTheReplicaAcknowledgesIt() throws Exception {
        try (RedisIdempotencyStore store = RedisStores.start(settings("PT10S", "PT11S"))) {
            pause();
            String k = key();
            landedFirstAttempt(store, k, "owner");
            AtomicLong resumed = new AtomicLong();
            Thread resumer = new Thread(() -> {
                try {
                    Thread.sleep(500);
                    resumed.set(System.nanoTime());
                    resume();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            resumer.start();
            long start = System.nanoTime();
            ClaimResult r = store.claim(k, "owner", "fp", LEASE);
            long answered = System.nanoTime();
            resumer.join(10_000);

            assertThat(r.claimed()).as("the retried claim, acknowledged").isTrue();
            assertThat(r.record().owner()).isEqualTo("owner");
            assertThat(resumed.get())
                    .as("the claim was answered " + TimeUnit.NANOSECONDS.toMillis(answered - start)
                            + " ms after it started, before the replica was resumed (500 ms)")
                    .isNotZero()
                    .isLessThan(answered);
            try (Jedis replica = new Jedis("127.0.0.1", REPLICA, 1000)) {
                assertThat(replica.get(store.redisKey(k)))
                        .as("the replica's copy of the acknowledged claim")
                        .isNotNull();
            }
        }
    }

    /**
     * The issue's own sequence: the first attempt's {@code SET} lands and its {@code WAIT} is cut by
     * the socket timeout (a client configured around the check of {@code wait-timeout} against
     * {@code timeout}); the retry must not take its own claim for an acknowledged one: every retry's
     * {@code WAIT} is cut too, and the claim fails as unavailable.
     */
    @Test
    void aWaitCutByTheSocketTimeoutIsNeverTakenForAnAcknowledgement() throws Exception {
        RedisClient client = RedisClient.builder()
                .hostAndPort("127.0.0.1", PRIMARY)
                .clientConfig(DefaultJedisClientConfig.builder()
                        .socketTimeoutMillis(300)
                        .build())
                .build();
        RedisStoreSettings s = RedisStoreSettings.from(settings("PT1S", "PT2S"));
        try (RedisIdempotencyStore store = new RedisIdempotencyStore(client, s, Clock.systemUTC(), true)) {
            pause();
            String k = key();
            long start = System.nanoTime();
            assertThatThrownBy(() -> store.claim(k, "owner", "fp", LEASE))
                    .as("a claim whose every WAIT the 300 ms socket timeout cuts")
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the claim gave up within its 2 s of retries")
                    .isLessThan(Duration.ofSeconds(10));
        }
    }

    /** Writes {@code owner}'s claim on the primary as a first attempt whose answer was lost would. */
    private static void landedFirstAttempt(RedisIdempotencyStore store, String key, String owner) {
        byte[] claim = RedisRecordCodec.encode(RecordLifecycle.newClaim(key, owner, "fp", Instant.now(), LEASE));
        try (Jedis primary = new Jedis("127.0.0.1", PRIMARY, 1000)) {
            assertThat(primary.set(
                            store.redisKey(key),
                            claim,
                            SetParams.setParams().nx().px(LEASE.toMillis() + 60_000)))
                    .isEqualTo("OK");
        }
    }

    private static ConfigLookup settings(String waitTimeout, String timeout) {
        return ConfigLookup.of(Map.of(
                RedisStoreSettings.URI,
                "redis://127.0.0.1:" + PRIMARY,
                RedisStoreSettings.WAIT_REPLICAS,
                "1",
                RedisStoreSettings.WAIT_TIMEOUT,
                waitTimeout,
                RedisStoreSettings.TIMEOUT,
                timeout));
    }

    private static String key() {
        return Hashing.sha256Hex("retried-claim-" + System.nanoTime());
    }

    private void pause() throws Exception {
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
    }

    private void resume() throws Exception {
        long pid = pausedPid;
        pausedPid = 0;
        signal("CONT", pid);
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
