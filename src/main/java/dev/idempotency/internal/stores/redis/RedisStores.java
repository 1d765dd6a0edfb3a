package dev.idempotency.internal.stores.redis;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.ConfigLookup;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/** Builds {@link RedisIdempotencyStore}s and their Jedis clients from the {@code idempotency.redis.*} keys. */
public final class RedisStores {

    /** The store's name, the value of {@code idempotency.store} that selects it. */
    public static final String NAME = "redis";

    private RedisStores() {}

    /**
     * Connects to Redis, checks that it answers and can run the store (see {@link
     * RedisIdempotencyStore#verify}), and returns the store; closing the store closes the client.
     *
     * @throws IdempotencyConfigurationException a key is invalid, or Redis cannot be reached: the
     *     message names the key that points at it
     */
    public static RedisIdempotencyStore start(ConfigLookup settings) {
        RedisStoreSettings s = RedisStoreSettings.from(settings);
        UnifiedJedis client;
        try {
            client = client(s);
        } catch (JedisException e) {
            throw unreachable(s, e);
        }
        RedisIdempotencyStore store = new RedisIdempotencyStore(client, s, Clock.systemUTC(), true);
        try {
            store.verify();
        } catch (IdempotencyStoreUnavailableException e) {
            store.close();
            throw unreachable(s, e.getCause() == null ? e : e.getCause());
        } catch (IdempotencyConfigurationException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** The Jedis client for the configured topology. */
    public static UnifiedJedis client(RedisStoreSettings s) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) s.connectTimeout().toMillis())
                .socketTimeoutMillis((int) s.timeout().toMillis())
                .clientName("idempotency-ee");
        if (s.tls()) {
            // The JVM's default trust store (javax.net.ssl.trustStore) verifies the server.
            config.sslOptions(SslOptions.defaults());
        }
        s.user().ifPresent(config::user);
        s.password().ifPresent(config::password);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(s.poolSize());
        pool.setMaxIdle(s.poolSize());
        pool.setMinIdle(0);
        pool.setMaxWait(s.timeout());
        // Pools of several deployments would otherwise compete for one platform MBean name.
        pool.setJmxEnabled(false);
        return switch (s.topology()) {
            case STANDALONE -> {
                config.database(s.database());
                yield RedisClient.builder()
                        .hostAndPort(s.uri().getHost(), RedisStoreSettings.port(s.uri()))
                        .clientConfig(config.build())
                        .poolConfig(pool)
                        .build();
            }
            case SENTINEL -> {
                config.database(s.database());
                DefaultJedisClientConfig.Builder sentinel = DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis((int) s.connectTimeout().toMillis())
                        .socketTimeoutMillis((int) s.timeout().toMillis());
                if (s.tls()) {
                    sentinel.sslOptions(SslOptions.defaults());
                }
                JedisClientConfig sentinelConfig = sentinel.build();
                yield RedisSentinelClient.builder()
                        .masterName(s.sentinelMaster())
                        .sentinels(hostAndPorts(s.sentinelNodes()))
                        .sentinelClientConfig(sentinelConfig)
                        .clientConfig(config.build())
                        .poolConfig(pool)
                        .build();
            }
            case CLUSTER -> RedisClusterClient.builder()
                    .nodes(hostAndPorts(s.clusterNodes()))
                    .clientConfig(config.build())
                    .poolConfig(pool)
                    .build();
        };
    }

    private static Set<HostAndPort> hostAndPorts(java.util.List<RedisStoreSettings.HostPort> nodes) {
        Set<HostAndPort> out = new LinkedHashSet<>();
        for (RedisStoreSettings.HostPort n : nodes) {
            out.add(new HostAndPort(n.host(), n.port()));
        }
        return out;
    }

    private static IdempotencyConfigurationException unreachable(RedisStoreSettings s, Throwable cause) {
        return new IdempotencyConfigurationException(
                "The Redis idempotency store cannot use " + s.describe() + " (config key '" + s.addressKey() + "'): "
                        + cause.getMessage() + ". Start Redis 7+ there, or point '" + s.addressKey()
                        + "' at a running one; check '" + RedisStoreSettings.USER + "', '"
                        + RedisStoreSettings.PASSWORD + "' and '" + RedisStoreSettings.TLS + "' if it refuses"
                        + " the connection.",
                cause);
    }
}
