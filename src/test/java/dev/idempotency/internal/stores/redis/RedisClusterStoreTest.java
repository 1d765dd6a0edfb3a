package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The store contract on a real three-master Redis Cluster that the test starts from the {@code
 * redis-server} binary on loopback ports (see {@link RedisServers#cluster()}), including the claim race
 * of 64 threads x 1,000 keys, and a check that the keys were spread over every master.
 */
@Tag("services")
class RedisClusterStoreTest extends IdempotencyStoreContract {

    private static final String PREFIX = "idempotency-cluster-test:";

    private static RedisIdempotencyStore store;
    private static List<Integer> ports;

    @BeforeAll
    static void start() {
        ports = RedisServers.cluster();
        String seeds = ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        store = RedisStores.start(ConfigLookup.of(Map.of(
                RedisStoreSettings.CLUSTER_NODES,
                seeds,
                RedisStoreSettings.KEY_PREFIX,
                PREFIX,
                RedisStoreSettings.CLAIM_GRACE,
                "PT30S",
                RedisStoreSettings.POOL_SIZE,
                "64")));
    }

    @AfterAll
    static void stop() {
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void theStoreIsOnTheClusterAndKeysLandOnEveryMaster() {
        assertThat(store.client()).isInstanceOf(redis.clients.jedis.RedisClusterClient.class);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String k = key();
            keys.add(k);
            assertThat(store.claim(k, "o", "fp", Duration.ofMinutes(1)).claimed())
                    .isTrue();
        }
        for (int port : ports) {
            try (Jedis node = new Jedis("127.0.0.1", port, 2000)) {
                // A master answers EXISTS only for its own slots (others answer MOVED), so ask by KEYS.
                java.util.Set<String> held = node.keys(PREFIX + "*");
                long here = keys.stream().filter(k -> held.contains(PREFIX + k)).count();
                assertThat(here).as("records on the master at port %d", port).isGreaterThan(50);
            }
        }
    }
}
