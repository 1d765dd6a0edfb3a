package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.stores.redis.RedisStoreSettings.HostPort;
import dev.idempotency.internal.stores.redis.RedisStoreSettings.Topology;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every {@code idempotency.redis.*} key: its default as documented, its parsing, and its refusals. */
class RedisStoreSettingsTest {

    private static RedisStoreSettings of(Map<String, String> values) {
        return RedisStoreSettings.from(ConfigLookup.of(values));
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        RedisStoreSettings s = of(Map.of());
        assertThat(s.topology()).isEqualTo(Topology.STANDALONE);
        assertThat(s.describe()).isEqualTo("redis://127.0.0.1:6379/0");
        assertThat(s.database()).isZero();
        assertThat(s.user()).isEmpty();
        assertThat(s.password()).isEmpty();
        assertThat(s.tls()).isFalse();
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.poolSize()).isEqualTo(16);
        assertThat(s.keyPrefix()).isEqualTo("idempotency:");
        assertThat(s.claimGrace()).isEqualTo(Duration.ofHours(1));
        assertThat(s.waitReplicas()).isZero();
        assertThat(s.waitTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void everyKeyIsRead() {
        RedisStoreSettings s = of(Map.ofEntries(
                Map.entry(RedisStoreSettings.URI, "rediss://cache.internal:6380/3"),
                Map.entry(RedisStoreSettings.USER, "orders"),
                Map.entry(RedisStoreSettings.PASSWORD, "s3cret"),
                Map.entry(RedisStoreSettings.CONNECT_TIMEOUT, "PT0.5S"),
                Map.entry(RedisStoreSettings.TIMEOUT, "PT3S"),
                Map.entry(RedisStoreSettings.POOL_SIZE, "40"),
                Map.entry(RedisStoreSettings.KEY_PREFIX, "shop:"),
                Map.entry(RedisStoreSettings.CLAIM_GRACE, "PT5M"),
                Map.entry(RedisStoreSettings.WAIT_REPLICAS, "2"),
                Map.entry(RedisStoreSettings.WAIT_TIMEOUT, "PT0.2S")));
        assertThat(s.tls()).as("rediss:// means TLS").isTrue();
        assertThat(s.database()).isEqualTo(3);
        assertThat(s.describe()).isEqualTo("rediss://cache.internal:6380/3").doesNotContain("s3cret");
        assertThat(s.user()).contains("orders");
        assertThat(s.password()).contains("s3cret");
        assertThat(s.toString())
                .as("a record prints its fields; this one never the password")
                .doesNotContain("s3cret");
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.poolSize()).isEqualTo(40);
        assertThat(s.keyPrefix()).isEqualTo("shop:");
        assertThat(s.claimGrace()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.waitReplicas()).isEqualTo(2);
        assertThat(s.waitTimeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(of(Map.of(RedisStoreSettings.TLS, "true")).tls()).isTrue();
    }

    @Test
    void clusterAndSentinelKeysSelectTheirTopology() {
        RedisStoreSettings cluster = of(Map.of(RedisStoreSettings.CLUSTER_NODES, "10.0.0.1:7000, 10.0.0.2:7001"));
        assertThat(cluster.topology()).isEqualTo(Topology.CLUSTER);
        assertThat(cluster.clusterNodes())
                .containsExactly(new HostPort("10.0.0.1", 7000), new HostPort("10.0.0.2", 7001));
        assertThat(cluster.addressKey()).isEqualTo(RedisStoreSettings.CLUSTER_NODES);

        RedisStoreSettings sentinel = of(Map.of(
                RedisStoreSettings.SENTINEL_MASTER, "orders",
                RedisStoreSettings.SENTINEL_NODES, "s1:26379,s2:26379"));
        assertThat(sentinel.topology()).isEqualTo(Topology.SENTINEL);
        assertThat(sentinel.sentinelMaster()).isEqualTo("orders");
        assertThat(sentinel.sentinelNodes()).isEqualTo(List.of(new HostPort("s1", 26379), new HostPort("s2", 26379)));
        assertThat(sentinel.addressKey()).isEqualTo(RedisStoreSettings.SENTINEL_NODES);
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        Map<String, Map<String, String>> bad = Map.ofEntries(
                Map.entry(RedisStoreSettings.URI, Map.of(RedisStoreSettings.URI, "http://127.0.0.1:6379")),
                Map.entry(RedisStoreSettings.POOL_SIZE, Map.of(RedisStoreSettings.POOL_SIZE, "0")),
                Map.entry(RedisStoreSettings.WAIT_REPLICAS, Map.of(RedisStoreSettings.WAIT_REPLICAS, "-1")),
                Map.entry(RedisStoreSettings.TIMEOUT, Map.of(RedisStoreSettings.TIMEOUT, "2s")),
                Map.entry(RedisStoreSettings.CONNECT_TIMEOUT, Map.of(RedisStoreSettings.CONNECT_TIMEOUT, "PT0S")),
                Map.entry(RedisStoreSettings.WAIT_TIMEOUT, Map.of(RedisStoreSettings.WAIT_TIMEOUT, "1000")),
                Map.entry(RedisStoreSettings.CLAIM_GRACE, Map.of(RedisStoreSettings.CLAIM_GRACE, "PT0S")),
                Map.entry(RedisStoreSettings.TLS, Map.of(RedisStoreSettings.TLS, "yes")),
                Map.entry(RedisStoreSettings.CLUSTER_NODES, Map.of(RedisStoreSettings.CLUSTER_NODES, "10.0.0.1")),
                Map.entry(RedisStoreSettings.SENTINEL_NODES, Map.of(RedisStoreSettings.SENTINEL_MASTER, "orders")));
        bad.forEach((key, values) -> assertThatThrownBy(() -> of(values))
                .as(key)
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(key));
        assertThatThrownBy(() -> of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:6379/x"))
                        .database())
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(RedisStoreSettings.URI);
    }

    @Test
    void valuesThatUsedToPassUncheckedAreRefusedWhenTheSettingsAreRead() {
        for (String uri : new String[] {"redis://127.0.0.1:6379/x", "redis://127.0.0.1:6379/-1"}) {
            assertThatThrownBy(() -> of(Map.of(RedisStoreSettings.URI, uri)))
                    .as(uri)
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(RedisStoreSettings.URI)
                    .hasMessageContaining("database number");
        }
        for (String nodes : new String[] {"10.0.0.1:0", "10.0.0.1:6379,10.0.0.2:65536", "10.0.0.1:-1"}) {
            assertThatThrownBy(() -> of(Map.of(RedisStoreSettings.CLUSTER_NODES, nodes)))
                    .as(nodes)
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(RedisStoreSettings.CLUSTER_NODES)
                    .hasMessageContaining("from 1 to 65535");
        }
        assertThat(of(Map.of(RedisStoreSettings.CLUSTER_NODES, "10.0.0.1:1,10.0.0.2:65535"))
                        .clusterNodes())
                .isEqualTo(List.of(new HostPort("10.0.0.1", 1), new HostPort("10.0.0.2", 65535)));
        assertThat(of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:6379/3"))
                        .database())
                .isEqualTo(3);
    }

    @Test
    void aWaitTimeoutNotBelowTheCommandTimeoutIsRefusedWithReplicasToWaitFor() {
        for (String wait : new String[] {"PT2S", "PT3S"}) {
            assertThatThrownBy(() -> of(Map.of(
                            RedisStoreSettings.WAIT_REPLICAS, "1",
                            RedisStoreSettings.WAIT_TIMEOUT, wait,
                            RedisStoreSettings.TIMEOUT, "PT2S")))
                    .as("wait-timeout " + wait + " with timeout PT2S")
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(RedisStoreSettings.WAIT_TIMEOUT)
                    .hasMessageContaining(RedisStoreSettings.TIMEOUT + "' is PT2S")
                    .hasMessageContaining("below '" + RedisStoreSettings.TIMEOUT + "'");
        }
        assertThatThrownBy(() ->
                        of(Map.of(RedisStoreSettings.WAIT_REPLICAS, "1", RedisStoreSettings.WAIT_TIMEOUT, "PT2S")))
                .as("wait-timeout PT2S against the default timeout")
                .isInstanceOf(IdempotencyConfigurationException.class);
        // Refused when the store starts, before it connects (nothing listens on port 1).
        assertThatThrownBy(() -> RedisStores.start(ConfigLookup.of(Map.of(
                        RedisStoreSettings.URI, "redis://127.0.0.1:1",
                        RedisStoreSettings.WAIT_REPLICAS, "2",
                        RedisStoreSettings.WAIT_TIMEOUT, "PT5S"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(RedisStoreSettings.WAIT_TIMEOUT)
                .hasMessageContaining(RedisStoreSettings.TIMEOUT);

        RedisStoreSettings below = of(Map.of(
                RedisStoreSettings.WAIT_REPLICAS, "1",
                RedisStoreSettings.WAIT_TIMEOUT, "PT1.9S",
                RedisStoreSettings.TIMEOUT, "PT2S"));
        assertThat(below.waitTimeout()).isEqualTo(Duration.ofMillis(1900));
        assertThat(of(Map.of(RedisStoreSettings.WAIT_TIMEOUT, "PT5S")).waitTimeout())
                .as("without wait-replicas no WAIT runs, so its timeout is not checked")
                .isEqualTo(Duration.ofSeconds(5));
    }
}
