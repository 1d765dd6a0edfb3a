package dev.idempotency.toolkit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.infinispan.ClusterNodes;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.jpa.JpaIdempotencyStore;
import dev.idempotency.internal.stores.jpa.JpaStoreSettings;
import dev.idempotency.internal.stores.jpa.JpaStores;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisServers;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStores;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real stores the toolkit is tested on, each as two "nodes" that share one backend: the memory
 * store (one instance twice), a two-node Infinispan cluster inside this JVM (JGroups TCP on
 * 127.0.0.1:7900-7901, the shipped clustered configuration), two JPA stores (two connection
 * pools) on one PostgreSQL schema, and two Redis stores on the machine's Redis. Racing threads use both nodes,
 * so every race also crosses the "cluster". Started once per JVM, on first use; closed at exit.
 */
public enum StoreNodes {
    /** The built-in memory store. */
    MEMORY,
    /** Two Infinispan nodes in one cluster. */
    INFINISPAN,
    /** Two JPA stores on PostgreSQL 127.0.0.1:5432, schema {@value #PG_SCHEMA}. */
    POSTGRESQL,
    /** Two Redis stores (two connection pools) on the machine's Redis, 127.0.0.1:6379. */
    REDIS;

    /** The PostgreSQL schema of the toolkit's tests, apart from every other suite's tables. */
    public static final String PG_SCHEMA = "toolkit_test";

    private static final int JGROUPS_A = TestServices.port(7900);
    private static final int JGROUPS_B = TestServices.port(7901);

    private List<IdempotencyStore> nodes;

    /** Every store, for {@code @MethodSource}. */
    public static Stream<StoreNodes> all() {
        return Stream.of(values());
    }

    /** The store's two nodes, started on first use. */
    public synchronized List<IdempotencyStore> nodes() {
        if (nodes == null) {
            nodes = start();
        }
        return nodes;
    }

    /** Node {@code i % 2}. */
    public IdempotencyStore node(int i) {
        return nodes().get(Math.floorMod(i, 2));
    }

    private List<IdempotencyStore> start() {
        switch (this) {
            case MEMORY -> {
                MemoryIdempotencyStore m = new MemoryIdempotencyStore();
                return List.of(m, m);
            }
            case INFINISPAN -> {
                ClusterNodes cluster = new ClusterNodes("toolkit-test", List.of(JGROUPS_A, JGROUPS_B), Map.of());
                InfinispanRaftStore a = cluster.start(JGROUPS_A);
                InfinispanRaftStore b = cluster.start(JGROUPS_B);
                try {
                    ClusterNodes.awaitLeader(Duration.ofSeconds(60), a, b);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    b.close();
                    a.close();
                }));
                return List.of(a, b);
            }
            case POSTGRESQL -> {
                run("CREATE SCHEMA IF NOT EXISTS " + PG_SCHEMA);
                HikariDataSource dsA = pool();
                HikariDataSource dsB = pool();
                JpaIdempotencyStore a =
                        JpaStores.resourceLocal(dsA, JpaStoreSettings.from(ConfigLookup.none()), Clock.systemUTC());
                JpaIdempotencyStore b =
                        JpaStores.resourceLocal(dsB, JpaStoreSettings.from(ConfigLookup.none()), Clock.systemUTC());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    a.close();
                    b.close();
                    dsA.close();
                    dsB.close();
                }));
                return List.of(a, b);
            }
            case REDIS -> {
                RedisServers.requireMachineRedis();
                ConfigLookup settings = ConfigLookup.of(Map.of(
                        RedisStoreSettings.KEY_PREFIX,
                        "toolkit-test-" + ProcessHandle.current().pid() + ":"));
                RedisIdempotencyStore a = RedisStores.start(settings);
                RedisIdempotencyStore b = RedisStores.start(settings);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    a.close();
                    b.close();
                }));
                return List.of(a, b);
            }
            default -> throw new IllegalStateException(name());
        }
    }

    private static HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestServices.postgresUrl(PG_SCHEMA));
        config.setUsername("postgres");
        config.setPassword("");
        config.setMaximumPoolSize(16);
        config.setMinimumIdle(1);
        return new HikariDataSource(config);
    }

    private static void run(String sql) {
        try (Connection c = DriverManager.getConnection(TestServices.postgresUrl(), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "The toolkit's PostgreSQL tests need the database at 127.0.0.1:5432 (user postgres, db test): " + e,
                    e);
        }
    }
}
