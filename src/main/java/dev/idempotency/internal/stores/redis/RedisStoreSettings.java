package dev.idempotency.internal.stores.redis;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code idempotency.redis.*} configuration keys, their defaults and their validation. Values
 * come from MicroProfile Config, so a password can come from an environment variable ({@code
 * IDEMPOTENCY_REDIS_PASSWORD}). The reference table is docs/redis-store.md.
 *
 * <p>Exactly one topology applies: {@link #CLUSTER_NODES} when set (Redis Cluster), else {@link
 * #SENTINEL_MASTER} (Sentinel, with {@link #SENTINEL_NODES}), else {@link #URI} (one server). Setting
 * both cluster and sentinel keys is refused.
 *
 * @param topology the topology the keys select
 * @param uri the standalone server's URI (also the source of the database number and TLS)
 * @param database the database number of a standalone or Sentinel URI path ({@code /2}), default 0
 * @param clusterNodes Redis Cluster seed nodes; empty unless {@link Topology#CLUSTER}
 * @param sentinelMaster the Sentinel master name, or {@code null}
 * @param sentinelNodes the Sentinels
 * @param user the ACL user
 * @param password the password
 * @param tls whether connections use TLS
 * @param connectTimeout connect timeout
 * @param timeout command (socket) timeout
 * @param poolSize pool size
 * @param keyPrefix key prefix
 * @param claimGrace how long a claim outlives its lease
 * @param waitReplicas replicas that must acknowledge claims and completions
 * @param waitTimeout how long to wait for them
 * @param settlePatience how long a complete or release retries a transient failure
 */
public record RedisStoreSettings(
        Topology topology,
        URI uri,
        int database,
        List<HostPort> clusterNodes,
        String sentinelMaster,
        List<HostPort> sentinelNodes,
        Optional<String> user,
        Optional<String> password,
        boolean tls,
        Duration connectTimeout,
        Duration timeout,
        int poolSize,
        String keyPrefix,
        Duration claimGrace,
        int waitReplicas,
        Duration waitTimeout,
        Duration settlePatience) {

    /** Config key: the server, {@code redis://host:port[/database]} or {@code rediss://} for TLS. */
    public static final String URI = "idempotency.redis.uri";
    /** Config key: Redis Cluster seed nodes, {@code host:port,host:port}. Selects Redis Cluster. */
    public static final String CLUSTER_NODES = "idempotency.redis.cluster.nodes";
    /** Config key: the Sentinel master name. Selects Sentinel. */
    public static final String SENTINEL_MASTER = "idempotency.redis.sentinel.master";
    /** Config key: the Sentinels, {@code host:port,host:port}. Required with {@link #SENTINEL_MASTER}. */
    public static final String SENTINEL_NODES = "idempotency.redis.sentinel.nodes";
    /** Config key: ACL user name (Redis 6+); empty for the default user. */
    public static final String USER = "idempotency.redis.user";
    /** Config key: password (of {@link #USER}, or {@code requirepass}). */
    public static final String PASSWORD = "idempotency.redis.password";
    /** Config key: whether connections use TLS (also implied by a {@code rediss://} URI). */
    public static final String TLS = "idempotency.redis.tls";
    /** Config key: how long opening a connection may take. */
    public static final String CONNECT_TIMEOUT = "idempotency.redis.connect-timeout";
    /** Config key: how long one command may take before the store counts Redis as unavailable. */
    public static final String TIMEOUT = "idempotency.redis.timeout";
    /** Config key: connections in the pool (per node on Redis Cluster). */
    public static final String POOL_SIZE = "idempotency.redis.pool-size";
    /** Config key: prefix of every Redis key the store writes. */
    public static final String KEY_PREFIX = "idempotency.redis.key-prefix";
    /**
     * Config key: how long an IN_PROGRESS claim outlives its lease in Redis, so that an owner that ran
     * past its lease can still store its outcome when nobody took over.
     */
    public static final String CLAIM_GRACE = "idempotency.redis.claim-grace";
    /** Config key: replicas that must acknowledge a claim and a completion ({@code WAIT}); 0 = none. */
    public static final String WAIT_REPLICAS = "idempotency.redis.wait-replicas";
    /**
     * Config key: how long a write waits for {@link #WAIT_REPLICAS} acknowledgements; with {@link
     * #WAIT_REPLICAS} above 0, less than {@link #TIMEOUT}.
     */
    public static final String WAIT_TIMEOUT = "idempotency.redis.wait-timeout";

    /**
     * Config key: how long a complete or release keeps retrying a lost connection, a full pool or a
     * failover before the outcome is given up (docs/operations.md, "When the store fails after the
     * operation ran").
     */
    public static final String SETTLE_PATIENCE = "idempotency.redis.settle-patience";

    /** Default of {@link #URI}. */
    public static final String DEFAULT_URI = "redis://127.0.0.1:6379";
    /** Default of {@link #CONNECT_TIMEOUT}. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Default of {@link #TIMEOUT}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** Default of {@link #POOL_SIZE}. */
    public static final int DEFAULT_POOL_SIZE = 16;
    /** Default of {@link #KEY_PREFIX}. */
    public static final String DEFAULT_KEY_PREFIX = "idempotency:";
    /** Default of {@link #CLAIM_GRACE}. */
    public static final Duration DEFAULT_CLAIM_GRACE = Duration.ofHours(1);
    /** Default of {@link #WAIT_TIMEOUT}. */
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(1);
    /** Default of {@link #SETTLE_PATIENCE}. */
    public static final Duration DEFAULT_SETTLE_PATIENCE = Duration.ofMinutes(2);

    /** Which kind of Redis deployment the store talks to. */
    public enum Topology {
        /** One server (or a primary with replicas, addressed directly). */
        STANDALONE,
        /** A primary found through Redis Sentinel. */
        SENTINEL,
        /** Redis Cluster. */
        CLUSTER
    }

    /** A {@code host:port} pair of a seed node or a Sentinel. */
    public record HostPort(String host, int port) {}

    /**
     * Reads and validates every key.
     *
     * @throws IdempotencyConfigurationException a value is invalid; the message names the key
     */
    public static RedisStoreSettings from(ConfigLookup settings) {
        Optional<String> cluster = settings.text(CLUSTER_NODES);
        Optional<String> master = settings.text(SENTINEL_MASTER);
        if (cluster.isPresent() && master.isPresent()) {
            throw new IdempotencyConfigurationException("Config keys '" + CLUSTER_NODES + "' and '" + SENTINEL_MASTER
                    + "' are both set; a store talks to Redis Cluster or to a Sentinel-managed primary, not both."
                    + " Remove one of them.");
        }
        List<HostPort> clusterNodes =
                cluster.map(v -> hostPorts(CLUSTER_NODES, v)).orElse(List.of());
        String sentinelMaster = master.orElse(null);
        List<HostPort> sentinelNodes = settings.text(SENTINEL_NODES)
                .map(v -> hostPorts(SENTINEL_NODES, v))
                .orElse(List.of());
        if (sentinelMaster != null && sentinelNodes.isEmpty()) {
            throw new IdempotencyConfigurationException("Config key '" + SENTINEL_MASTER + "' is '" + sentinelMaster
                    + "', but '" + SENTINEL_NODES + "' is not set; list the Sentinels as host:port,host:port.");
        }
        Topology topology = !clusterNodes.isEmpty()
                ? Topology.CLUSTER
                : sentinelMaster != null ? Topology.SENTINEL : Topology.STANDALONE;
        URI uri = uri(settings.text(URI).orElse(DEFAULT_URI));
        Duration timeout = settings.duration(TIMEOUT, DEFAULT_TIMEOUT);
        int waitReplicas = settings.intBetween(WAIT_REPLICAS, 0, 0, Integer.MAX_VALUE);
        Duration waitTimeout = settings.duration(WAIT_TIMEOUT, DEFAULT_WAIT_TIMEOUT);
        if (waitReplicas > 0 && waitTimeout.compareTo(timeout) >= 0) {
            // WAIT answers only after wait-timeout: a socket timeout at or before it cuts every WAIT
            // that does not get its acknowledgements, and the claim fails as a lost connection instead
            // of being refused and withdrawn.
            throw new IdempotencyConfigurationException("Config key '" + WAIT_TIMEOUT + "' is " + waitTimeout
                    + " with '" + WAIT_REPLICAS + "' " + waitReplicas + ", but '" + TIMEOUT + "' is " + timeout
                    + ": a command would time out before WAIT answers. Set '" + WAIT_TIMEOUT
                    + "' below '" + TIMEOUT + "' (leaving room for a round trip), or raise '" + TIMEOUT + "'.");
        }
        return new RedisStoreSettings(
                topology,
                uri,
                database(uri),
                clusterNodes,
                sentinelMaster,
                sentinelNodes,
                settings.text(USER),
                settings.get(PASSWORD).filter(v -> !v.isEmpty()),
                settings.bool(TLS, false) || "rediss".equals(uri.getScheme()),
                settings.duration(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT),
                timeout,
                settings.positiveInt(POOL_SIZE, DEFAULT_POOL_SIZE),
                settings.get(KEY_PREFIX).orElse(DEFAULT_KEY_PREFIX),
                settings.duration(CLAIM_GRACE, DEFAULT_CLAIM_GRACE),
                waitReplicas,
                waitTimeout,
                settings.duration(SETTLE_PATIENCE, DEFAULT_SETTLE_PATIENCE));
    }

    /** {@link #describe()}: never the password. */
    @Override
    public String toString() {
        return "RedisStoreSettings[" + describe() + "]";
    }

    /** A description for logs and errors, never with the password. */
    public String describe() {
        return switch (topology) {
            case STANDALONE -> uri.getScheme() + "://" + uri.getHost() + ":" + port(uri) + "/" + database;
            case SENTINEL -> "Sentinel master '" + sentinelMaster + "' via " + sentinelNodes;
            case CLUSTER -> "Redis Cluster seeded by " + clusterNodes;
        };
    }

    /** The key that names the server(s), for messages. */
    public String addressKey() {
        return switch (topology) {
            case STANDALONE -> URI;
            case SENTINEL -> SENTINEL_NODES;
            case CLUSTER -> CLUSTER_NODES;
        };
    }

    static int port(URI uri) {
        return uri.getPort() > 0 ? uri.getPort() : 6379;
    }

    private static URI uri(String text) {
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            throw new IdempotencyConfigurationException(
                    "Config key '" + URI + "' is '" + text
                            + "', which is not a URI; write it like redis://127.0.0.1:6379.",
                    e);
        }
        if (!"redis".equals(u.getScheme()) && !"rediss".equals(u.getScheme()) || u.getHost() == null) {
            throw new IdempotencyConfigurationException("Config key '" + URI + "' is '" + text
                    + "'; write it like redis://host:6379 (or rediss://host:6379 for TLS).");
        }
        if (u.getUserInfo() != null) {
            throw new IdempotencyConfigurationException("Config key '" + URI
                    + "' holds a user or password; set them with '" + USER + "' and '" + PASSWORD
                    + "' (the password can then come from the environment as IDEMPOTENCY_REDIS_PASSWORD).");
        }
        return u;
    }

    private static int database(URI uri) {
        String path = uri.getPath();
        if (path == null || path.isEmpty() || "/".equals(path)) {
            return 0;
        }
        try {
            int n = Integer.parseInt(path.substring(1));
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the fix
        }
        throw new IdempotencyConfigurationException("Config key '" + URI + "' is '" + uri
                + "'; its path must be a database number such as /0, or nothing.");
    }

    private static List<HostPort> hostPorts(String key, String text) {
        List<HostPort> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            int colon = p.lastIndexOf(':');
            if (colon <= 0 || colon == p.length() - 1) {
                throw new IdempotencyConfigurationException(
                        "Config key '" + key + "' is '" + text + "'; write it as host:port,host:port.");
            }
            int port;
            try {
                port = Integer.parseInt(p.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IdempotencyConfigurationException(
                        "Config key '" + key + "' is '" + text + "'; '" + p + "' has no port number.", e);
            }
            if (port < 1 || port > 65_535) {
                throw new IdempotencyConfigurationException("Config key '" + key + "' is '" + text + "'; '" + p
                        + "' has port " + port + ", but a port is a number from 1 to 65535.");
            }
            out.add(new HostPort(p.substring(0, colon), port));
        }
        return List.copyOf(out);
    }
}
