package dev.idempotency.internal.stores.redis;

import dev.idempotency.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;

/**
 * Redis servers of the tests: the machine's own service on 127.0.0.1:6379, and servers that a test
 * starts itself from the {@code redis-server} binary on loopback ports (a three-master Redis Cluster, a
 * server to stop mid-test, a replica). Started processes are stopped at JVM exit.
 */
public final class RedisServers {

    /** The machine's Redis. */
    public static final int MACHINE_PORT = 6379;

    /**
     * First port of the test's own Redis Cluster (moved by IDEMPOTENCY_TEST_PORT_OFFSET). The Redis
     * tests use 7700-7731 (cluster buses 17700-17702): clear of the JGroups ports of the Infinispan
     * tests and of their failure-detection ports (those + 50; TestPortsTest).
     */
    public static final int CLUSTER_BASE = TestServices.port(7700);

    private static final Map<Integer, Process> STARTED = new ConcurrentHashMap<>();
    private static volatile List<Integer> cluster;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.values().forEach(Process::destroyForcibly)));
    }

    private RedisServers() {}

    /** Fails with how to start it when the machine's Redis does not answer. */
    public static void requireMachineRedis() {
        try (Jedis j = new Jedis("127.0.0.1", MACHINE_PORT, 2000)) {
            j.ping();
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "The Redis tests need Redis 7 on 127.0.0.1:6379; start it with: redis-server"
                            + " --daemonize yes --bind 127.0.0.1 --port 6379 --save \"\" --appendonly no (" + e + ")");
        }
    }

    /**
     * Starts a plain server on {@code port} (no persistence, loopback only) with extra arguments, and
     * waits until it answers.
     */
    public static synchronized void start(int port, String... args) {
        stop(port);
        Path dir = dir(port);
        List<String> cmd = new ArrayList<>(List.of(
                "redis-server",
                "--port",
                String.valueOf(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--logfile",
                dir.resolve("redis.log").toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            STARTED.put(port, p);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot start redis-server (is it installed? apt-get install redis-server)", e);
        }
        await(Duration.ofSeconds(20), "redis-server on port " + port + " to answer PING (log: " + dir + ")", () -> {
            try (Jedis j = new Jedis("127.0.0.1", port, 500)) {
                return "PONG".equals(j.ping());
            } catch (RuntimeException e) {
                return false;
            }
        });
    }

    /**
     * Starts a Redis Sentinel on {@code port} that monitors the primary on {@code primaryPort} under
     * the name {@code master} (quorum 1), and waits until it reports that primary.
     */
    public static synchronized void startSentinel(int port, String master, int primaryPort) {
        stop(port);
        Path dir = dir(port);
        Path conf = dir.resolve("sentinel.conf");
        try {
            Files.writeString(
                    conf,
                    String.join(
                            "\n",
                            "port " + port,
                            "bind 127.0.0.1",
                            "dir " + dir,
                            "logfile " + dir.resolve("sentinel.log"),
                            "sentinel monitor " + master + " 127.0.0.1 " + primaryPort + " 1",
                            ""));
            Process p = new ProcessBuilder("redis-server", conf.toString(), "--sentinel")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            STARTED.put(port, p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis-server --sentinel", e);
        }
        await(Duration.ofSeconds(20), "the Sentinel on port " + port + " to report primary " + primaryPort, () -> {
            try (Jedis j = new Jedis("127.0.0.1", port, 500)) {
                return String.valueOf(primaryPort)
                        .equals(j.sentinelGetMasterAddrByName(master).get(1));
            } catch (RuntimeException e) {
                return false;
            }
        });
    }

    /** Kills the server on {@code port} started by a test ({@code kill -9}) and waits until it is gone. */
    public static synchronized void stop(int port) {
        Process p = STARTED.remove(port);
        if (p != null) {
            p.destroyForcibly();
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("redis-server on port " + port + " did not exit within 20 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * A three-master Redis Cluster on {@link #CLUSTER_BASE} .. +2 (cluster bus on port + 10000), with
     * the 16,384 slots split evenly; started once per JVM.
     *
     * @return the three ports
     */
    public static synchronized List<Integer> cluster() {
        if (cluster != null) {
            return cluster;
        }
        List<Integer> ports = List.of(CLUSTER_BASE, CLUSTER_BASE + 1, CLUSTER_BASE + 2);
        for (int port : ports) {
            Path conf = dir(port).resolve("nodes.conf");
            try {
                Files.deleteIfExists(conf);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            start(
                    port,
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    conf.toString(),
                    "--cluster-node-timeout",
                    "5000");
        }
        int[][] ranges = {{0, 5460}, {5461, 10922}, {10923, 16383}};
        for (int i = 0; i < 3; i++) {
            try (Jedis j = new Jedis("127.0.0.1", ports.get(i), 2000)) {
                j.clusterAddSlotsRange(ranges[i][0], ranges[i][1]);
                if (i > 0) {
                    j.clusterMeet("127.0.0.1", ports.get(0));
                }
            }
        }
        await(Duration.ofSeconds(60), "the three nodes to report cluster_state:ok and 3 known nodes", () -> {
            for (int port : ports) {
                try (Jedis j = new Jedis("127.0.0.1", port, 1000)) {
                    String info = j.clusterInfo();
                    if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:3")) {
                        return false;
                    }
                } catch (RuntimeException e) {
                    return false;
                }
            }
            return true;
        });
        cluster = ports;
        return ports;
    }

    /** Waits, bounded by time, and fails saying what it waited for. */
    public static void await(Duration limit, String what, BooleanSupplier done) {
        long end = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + limit.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    private static Path dir(int port) {
        Path dir = Path.of("target", "redis", String.valueOf(port)).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return dir;
    }
}
