package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The store contract through Redis Sentinel: a primary and a Sentinel that the test starts from the
 * {@code redis-server} binary on loopback ports; the store finds the primary by asking the Sentinel.
 */
@Tag("services")
class RedisSentinelStoreTest extends IdempotencyStoreContract {

    private static final int PRIMARY = TestServices.port(7710);
    private static final int SENTINEL = TestServices.port(7711);

    private static RedisIdempotencyStore store;

    @BeforeAll
    static void start() {
        RedisServers.start(PRIMARY);
        RedisServers.startSentinel(SENTINEL, "orders", PRIMARY);
        store = RedisStores.start(ConfigLookup.of(Map.of(
                RedisStoreSettings.SENTINEL_MASTER, "orders",
                RedisStoreSettings.SENTINEL_NODES, "127.0.0.1:" + SENTINEL,
                RedisStoreSettings.CLAIM_GRACE, "PT30S")));
    }

    @AfterAll
    static void stop() {
        store.close();
        RedisServers.stop(SENTINEL);
        RedisServers.stop(PRIMARY);
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void theStoreWritesToThePrimaryTheSentinelNamed() {
        String k = key();
        store.claim(k, "o", "fp", java.time.Duration.ofMinutes(1));
        try (redis.clients.jedis.Jedis primary = new redis.clients.jedis.Jedis("127.0.0.1", PRIMARY, 2000)) {
            assertThat(primary.exists(store.redisKey(k))).isTrue();
        }
        assertThat(store.where()).contains("Sentinel master 'orders'");
    }
}
