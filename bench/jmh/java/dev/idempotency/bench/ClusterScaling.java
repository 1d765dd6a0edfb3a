package dev.idempotency.bench;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Guarded calls per second of an Infinispan cluster (claim and complete of a new key, two RAFT
 * commands) against the number of concurrent callers, with three member processes on 127.0.0.1. Run
 * by {@code bench/cluster-scaling.sh}, which starts two members ({@code member}) and then the driver
 * ({@code drive}), the third member, whose callers send every command.
 *
 * <pre>
 * java ... ClusterScaling member &lt;port&gt; &lt;fsync&gt; &lt;state-dir&gt; &lt;ports,...&gt; &lt;pid to outlive&gt;
 * java ... ClusterScaling drive  &lt;port&gt; &lt;fsync&gt; &lt;state-dir&gt; &lt;ports,...&gt; &lt;seconds&gt; &lt;callers,...&gt;
 * </pre>
 */
public final class ClusterScaling {

    private ClusterScaling() {}

    /**
     * @param args see the class comment
     * @throws Exception when a member cannot start
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        boolean fsync = Boolean.parseBoolean(args[2]);
        String stateDir = args[3];
        List<Integer> ports =
                List.of(args[4].split(",")).stream().map(Integer::valueOf).toList();
        InfinispanRaftStore store = start(port, fsync, stateDir, ports);
        if (mode.equals("member")) {
            System.out.println("member " + store.raftId() + " started");
            // Until the script that started this member ends (or kills it), and at most an hour.
            long parent = Long.parseLong(args[5]);
            long deadline = System.nanoTime() + Duration.ofHours(1).toNanos();
            while (ProcessHandle.of(parent).map(ProcessHandle::isAlive).orElse(false)
                    && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            store.close();
            System.exit(0);
            return;
        }
        awaitLeader(store, Duration.ofSeconds(120));
        int seconds = Integer.parseInt(args[5]);
        List<Integer> callers =
                List.of(args[6].split(",")).stream().map(Integer::valueOf).toList();
        double single = 0;
        for (int n : callers) {
            run(store, n, Math.max(2, seconds / 3)); // warm-up
            double perSecond = run(store, n, seconds);
            if (single == 0) {
                single = perSecond;
            }
            System.out.printf(
                    Locale.ROOT,
                    "fsync=%s callers=%d calls_per_s=%.0f ratio_to_first=%.2f leader=%s driver=%s%n",
                    fsync,
                    n,
                    perSecond,
                    perSecond / single,
                    store.leader(),
                    store.raftId());
        }
        store.close();
    }

    /** Guarded calls per second with {@code callers} threads for {@code seconds}. */
    static double run(InfinispanRaftStore store, int callers, int seconds) throws InterruptedException {
        LongAdder calls = new LongAdder();
        LongAdder failures = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(callers);
        byte[] outcome = "{\"t\":\"value\",\"v\":{\"id\":42,\"status\":\"PAID\"}}".getBytes(StandardCharsets.UTF_8);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        String key = UUID.randomUUID().toString();
                        String owner = UUID.randomUUID().toString();
                        try {
                            if (store.claim(key, owner, "fp", Duration.ofMinutes(1)).claimed()
                                    && store.complete(key, owner, outcome, Duration.ofMinutes(10))) {
                                calls.increment();
                            } else {
                                failures.increment();
                            }
                        } catch (RuntimeException e) {
                            failures.increment();
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
            t.setDaemon(true);
            threads.add(t);
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        long countedAt = System.nanoTime();
        long counted = calls.sum();
        stop.set(true);
        if (!done.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("callers did not stop within 60 s");
        }
        if (failures.sum() > 0) {
            System.out.println("  " + failures.sum() + " calls failed with " + callers + " callers");
        }
        return counted / ((countedAt - start) / 1e9);
    }

    private static InfinispanRaftStore start(int port, boolean fsync, String stateDir, List<Integer> ports) {
        Properties p = new Properties();
        p.setProperty(InfinispanStores.BIND_PORT, String.valueOf(port));
        p.setProperty(
                InfinispanStores.INITIAL_HOSTS,
                ports.stream().map(n -> "127.0.0.1[" + n + "]").collect(Collectors.joining(",")));
        p.setProperty("idempotency.infinispan.cluster-name", "cluster-scaling");
        Map<String, String> settings = Map.of(
                InfinispanStoreSettings.CONFIG, InfinispanStores.CLUSTER_CONFIG,
                InfinispanStoreSettings.STATE_DIR, stateDir,
                InfinispanStoreSettings.FSYNC, String.valueOf(fsync),
                InfinispanStoreSettings.MAX_ENTRIES, String.valueOf(Long.MAX_VALUE),
                InfinispanStoreSettings.MAX_BYTES, String.valueOf(Long.MAX_VALUE));
        return (InfinispanRaftStore)
                InfinispanStores.start(ConfigLookup.of(settings), p, ClusterScaling.class.getClassLoader());
    }

    private static void awaitLeader(InfinispanRaftStore store, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!store.hasLeader() || store.visibleMembers() < 3) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no leader and three members within " + limit + ": sees "
                        + store.visibleMembers() + " members, leader " + store.leader());
            }
            Thread.sleep(50);
        }
    }

}
