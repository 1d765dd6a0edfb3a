package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.TestServices;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The store contract on the machine's Redis (127.0.0.1:6379), and what is particular to Redis: the
 * TTLs it sets, startup checks, an outage mid-test on a server the test starts and kills, and replica
 * acknowledgements with a real replica.
 */
@Tag("services")
class RedisStoreTest extends IdempotencyStoreContract {

    private static final String PREFIX =
            "idempotency-test-" + ProcessHandle.current().pid() + ":";
    private static final int OWN = TestServices.port(7706);
    private static final int REPLICA = TestServices.port(7707);

    private static RedisIdempotencyStore store;

    @BeforeAll
    static void start() {
        RedisServers.requireMachineRedis();
        // A grace well past the contract's PAST_SHORT, so late owners can complete.
        store = RedisStores.start(ConfigLookup.of(
                Map.of(RedisStoreSettings.KEY_PREFIX, PREFIX, RedisStoreSettings.CLAIM_GRACE, "PT30S")));
    }

    @AfterAll
    static void stop() {
        for (byte[] k : store.client().keys((PREFIX + "*").getBytes(StandardCharsets.UTF_8))) {
            store.client().del(k);
        }
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void aClaimLivesItsLeasePlusTheGraceAndACompletedRecordItsTtl() {
        String k = key();
        store.claim(k, "o", "fp", Duration.ofSeconds(10));
        // Bounds wide enough for a stalled machine, narrow enough to tell lease + grace (40 s) from
        // the lease alone (10 s), and a completion's ttl (5 s) from the claim's.
        long pttl = store.client().pttl(store.redisKey(k));
        assertThat(pttl)
                .isBetween(
                        Duration.ofSeconds(30).toMillis(),
                        Duration.ofSeconds(40).toMillis());

        store.complete(k, "o", new byte[] {1}, Duration.ofSeconds(5));
        assertThat(store.client().pttl(store.redisKey(k))).isBetween(1L, 5000L);
        assertThat(store.read(k).orElseThrow().status()).isEqualTo(RecordStatus.COMPLETED);
    }

    @Test
    void aValueThatIsNotARecordIsReportedNamingThePrefixNeverRunOver() {
        String k = key();
        store.client().set(store.redisKey(k), "someone else's data".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> store.claim(k, "o", "fp", Duration.ofSeconds(10)))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining(RedisStoreSettings.KEY_PREFIX);
    }

    @Test
    void aRedisThatEvictsKeysWithAnExpiryFailsTheStartAndOneThatDoesNotStarts() {
        int evicting = TestServices.port(7711);
        RedisServers.start(evicting, "--maxmemory", "4mb", "--maxmemory-policy", "volatile-lru");
        try {
            assertThatThrownBy(() -> RedisStores.start(
                            ConfigLookup.of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:" + evicting))))
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining("volatile-lru")
                    .hasMessageContaining("noeviction");
            // The same limit without eviction: a full Redis refuses writes, it never deletes a record.
            RedisServers.start(evicting, "--maxmemory", "4mb", "--maxmemory-policy", "noeviction");
            try (RedisIdempotencyStore ok = RedisStores.start(
                    ConfigLookup.of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:" + evicting)))) {
                assertThat(ok.claim("k", "o", "fp", Duration.ofSeconds(10)).claimed())
                        .isTrue();
            }
        } finally {
            RedisServers.stop(evicting);
        }
    }

    @Test
    void anUnreachableRedisAtStartupFailsNamingTheKey() {
        int closed = TestServices.port(7709);
        assertThatThrownBy(() -> RedisStores.start(ConfigLookup.of(Map.of(
                        RedisStoreSettings.URI,
                        "redis://127.0.0.1:" + closed,
                        RedisStoreSettings.CONNECT_TIMEOUT,
                        "PT0.5S"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(RedisStoreSettings.URI)
                .hasMessageContaining("127.0.0.1:" + closed);
    }

    @Test
    void aRedisThatGoesAwayMakesTheStoreUnavailableAndItResumesWhenRedisIsBack() {
        RedisServers.start(OWN);
        // A completion retries a lost connection for the settle patience, then fails as here.
        try (RedisIdempotencyStore own = RedisStores.start(settings(
                OWN, Map.of(RedisStoreSettings.TIMEOUT, "PT0.5S", RedisStoreSettings.SETTLE_PATIENCE, "PT1S")))) {
            String before = key();
            assertThat(own.claim(before, "o", "fp", Duration.ofMinutes(1)).claimed())
                    .isTrue();

            RedisServers.stop(OWN);
            long start = System.nanoTime();
            assertThatThrownBy(() -> own.claim(key(), "o2", "fp", Duration.ofMinutes(1)))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("Redis at redis://127.0.0.1:" + OWN);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThatThrownBy(() -> own.complete(before, "o", new byte[] {1}, Duration.ofMinutes(1)))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);

            RedisServers.start(OWN); // empty: the test's servers keep nothing on disk
            String after = key();
            RedisServers.await(Duration.ofSeconds(20), "the pool to reconnect", () -> {
                try {
                    return own.claim(after, "o3", "fp", Duration.ofMinutes(1)).claimed();
                } catch (IdempotencyStoreUnavailableException e) {
                    return false;
                }
            });
            assertThat(own.complete(after, "o3", new byte[] {7}, Duration.ofMinutes(1)))
                    .isTrue();
            assertThat(own.read(after).orElseThrow().outcome()).containsExactly(7);
        } finally {
            RedisServers.stop(OWN);
        }
    }

    @Test
    void aClaimThatNoReplicaAcknowledgedIsWithdrawnAndRefused() {
        RedisServers.start(OWN);
        try (RedisIdempotencyStore strict = RedisStores.start(settings(
                        OWN,
                        Map.of(RedisStoreSettings.WAIT_REPLICAS, "1", RedisStoreSettings.WAIT_TIMEOUT, "PT0.3S")));
                // The acknowledged claim below gets a generous timeout: a loaded machine can take more
                // than 300 ms to replicate, and that claim must not be refused for it.
                RedisIdempotencyStore patient = RedisStores.start(settings(
                        OWN,
                        Map.of(
                                RedisStoreSettings.WAIT_REPLICAS,
                                "1",
                                RedisStoreSettings.WAIT_TIMEOUT,
                                "PT10S",
                                RedisStoreSettings.TIMEOUT,
                                "PT11S")));
                RedisIdempotencyStore lax = RedisStores.start(settings(OWN, Map.of()))) {
            String k = key();
            assertThatThrownBy(() -> strict.claim(k, "o", "fp", Duration.ofMinutes(1)))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("0 of the 1 Redis replicas")
                    .hasMessageContaining(RedisStoreSettings.WAIT_REPLICAS);
            assertThat(lax.read(k)).as("the refused claim was withdrawn").isEmpty();

            RedisServers.start(REPLICA, "--replicaof", "127.0.0.1", String.valueOf(OWN));
            RedisServers.await(Duration.ofSeconds(30), "the replica to sync", () -> {
                try (redis.clients.jedis.Jedis j = new redis.clients.jedis.Jedis("127.0.0.1", REPLICA, 1000)) {
                    return j.info("replication").contains("master_link_status:up");
                }
            });
            ClaimResult r = patient.claim(k, "o", "fp", Duration.ofMinutes(1));
            assertThat(r.claimed()).isTrue();
            assertThat(patient.complete(k, "o", new byte[] {1}, Duration.ofMinutes(1)))
                    .isTrue();
            try (redis.clients.jedis.Jedis replica = new redis.clients.jedis.Jedis("127.0.0.1", REPLICA, 1000)) {
                byte[] copy = replica.get(patient.redisKey(k));
                assertThat(RedisRecordCodec.decode(k, copy).status()).isEqualTo(RecordStatus.COMPLETED);
            }
        } finally {
            RedisServers.stop(REPLICA);
            RedisServers.stop(OWN);
        }
    }

    private static ConfigLookup settings(int port, Map<String, String> extra) {
        Map<String, String> m = new HashMap<>(extra);
        m.put(RedisStoreSettings.URI, "redis://127.0.0.1:" + port);
        m.put(RedisStoreSettings.KEY_PREFIX, PREFIX);
        return ConfigLookup.of(m);
    }
}
