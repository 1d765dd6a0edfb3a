package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.spi.ConfigLookup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Members of an Infinispan cluster inside the test JVM, on the shipped clustered configuration:
 * JGroups TCP on 127.0.0.1, one RAFT log directory per cluster under {@code target/}.
 */
public final class ClusterNodes {

    private final String cluster;
    private final List<Integer> ports;
    private final Path stateDir;
    private final Map<String, String> extra;

    /**
     * @param name the test's name: the cluster's name and its state directory's
     * @param ports every member's JGroups port (the members, in RAFT terms)
     * @param extra more config keys for every member
     */
    public ClusterNodes(String name, List<Integer> ports, Map<String, String> extra) {
        this(name, ports, extra, true);
    }

    /**
     * @param fresh whether to delete the cluster's RAFT logs first; false for a second handle on the
     *     cluster of another instance with the same name, such as a member's restart
     */
    public ClusterNodes(String name, List<Integer> ports, Map<String, String> extra, boolean fresh) {
        this.cluster = name + "-" + ProcessHandle.current().pid();
        this.ports = ports;
        this.stateDir = Path.of("target", "raft-state", cluster);
        this.extra = extra;
        if (fresh) {
            deleteTree(stateDir);
        }
    }

    /** Starts the member on {@code port} and returns its store; its log is kept across restarts. */
    public InfinispanRaftStore start(int port) {
        return start(port, new Properties());
    }

    /** {@link #start(int)} with more placeholder values (system properties, in a server). */
    public InfinispanRaftStore start(int port, Properties placeholders) {
        return start(port, placeholders, Clock.systemUTC());
    }

    /** {@link #start(int, Properties)} with the member's clock. */
    public InfinispanRaftStore start(int port, Properties placeholders, Clock clock) {
        Properties p = new Properties();
        p.putAll(placeholders);
        p.setProperty(InfinispanStores.BIND_PORT, String.valueOf(port));
        p.setProperty(
                InfinispanStores.INITIAL_HOSTS,
                ports.stream().map(n -> "127.0.0.1[" + n + "]").collect(Collectors.joining(",")));
        p.setProperty("idempotency.infinispan.cluster-name", cluster);
        Map<String, String> settings = new HashMap<>(extra);
        settings.put(InfinispanStoreSettings.CONFIG, InfinispanStores.CLUSTER_CONFIG);
        settings.putIfAbsent(InfinispanStoreSettings.CLAIM_GRACE, "PT30S");
        settings.put(InfinispanStoreSettings.STATE_DIR, stateDir.toString());
        return (InfinispanRaftStore)
                InfinispanStores.start(ConfigLookup.of(settings), p, ClusterNodes.class.getClassLoader(), clock);
    }

    /** Waits until every store sees a leader, at most {@code limit}; fails saying what each one saw. */
    public static void awaitLeader(Duration limit, InfinispanRaftStore... stores) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (Stream.of(stores).allMatch(InfinispanRaftStore::hasLeader)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no RAFT leader within " + limit + ": "
                + Stream.of(stores)
                        .map(s -> s.raftId() + " sees " + s.visibleMembers() + " members, leader " + s.hasLeader())
                        .toList());
    }

    /** Turns {@link VerifyingRaft#promptCommits} on or off in each store's RAFT protocol. */
    public static void promptCommits(boolean on, InfinispanRaftStore... stores) {
        for (InfinispanRaftStore s : stores) {
            s.protocol().promptCommits(on);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
