package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Volume of an Infinispan cluster: three member processes on 127.0.0.1 store {@code N} records (a new
 * key claimed and completed through the store, by 256 callers on the driver member), one member is
 * killed ({@code kill -9}) at N/2 and started again on its state directory at 3N/4, and at the end
 * every member checks that it holds every record, COMPLETED with its outcome, and reports its heap
 * after a full GC and its state directory's size. Run by {@code bench/cluster-volume.sh}.
 *
 * <pre>
 * java ... ClusterVolume drive &lt;records&gt; &lt;state-dir&gt; &lt;member -Xmx&gt;
 * </pre>
 */
public final class ClusterVolume {

    private static final List<Integer> PORTS = List.of(7970, 7971, 7972);
    private static final byte[] OUTCOME = "{\"t\":\"value\",\"v\":{\"id\":42,\"status\":\"PAID\"}}".getBytes(StandardCharsets.UTF_8);
    private static final int CALLERS = 256;

    private ClusterVolume() {}

    /**
     * @param args {@code drive <records> <state-dir> <member heap>} or, started by the driver, {@code
     *     member <port> <state-dir> <records> <driver pid>}
     * @throws Exception when a member cannot start
     */
    public static void main(String[] args) throws Exception {
        if (args[0].equals("member")) {
            member(Integer.parseInt(args[1]), Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]));
        } else {
            drive(Integer.parseInt(args[1]), Path.of(args[2]), args[3]);
        }
    }

    private static void drive(int records, Path state, String heap) throws Exception {
        Process b = spawn(PORTS.get(1), state, records, heap);
        Process c = spawn(PORTS.get(2), state, records, heap);
        InfinispanRaftStore a = start(PORTS.get(0), state);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!a.hasLeader() || a.visibleMembers() < 3) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no leader and three members within 2 minutes");
            }
            Thread.sleep(50);
        }
        log("cluster up, leader " + a.leader());
        long started = System.nanoTime();
        AtomicLong next = new AtomicLong();
        LongAdder retries = new LongAdder();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < CALLERS; t++) {
            Thread thread = new Thread(() -> {
                for (long i = next.getAndIncrement(); i < records; i = next.getAndIncrement()) {
                    store(a, i, retries);
                }
            });
            thread.setDaemon(true);
            callers.add(thread);
            thread.start();
        }
        boolean killed = false;
        boolean restarted = false;
        long lastReport = 0;
        while (callers.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(200);
            long done = Math.min(next.get(), records);
            if (!killed && done >= records / 2) {
                c.destroyForcibly().waitFor();
                killed = true;
                log("killed member " + PORTS.get(2) + " (kill -9) at " + done + " records");
            } else if (killed && !restarted && done >= records * 3L / 4) {
                c = spawn(PORTS.get(2), state, records, heap);
                restarted = true;
                log("started member " + PORTS.get(2) + " again at " + done + " records");
            }
            if (done - lastReport >= records / 10) {
                lastReport = done;
                log(done + " records, " + perSecond(done, started) + " records/s, leader " + a.leader());
            }
        }
        log(records + " records stored in " + (System.nanoTime() - started) / 1_000_000_000 + " s ("
                + perSecond(records, started) + " records/s), " + retries.sum() + " calls retried after a 503");
        Files.writeString(state.resolve("check"), "");
        String mine = check(a, PORTS.get(0), state, records);
        log(mine);
        for (int port : PORTS.subList(1, 3)) {
            Path result = state.resolve("check-" + port + ".txt");
            long until = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (!Files.exists(result) && System.nanoTime() < until) {
                Thread.sleep(500);
            }
            log(Files.exists(result) ? Files.readString(result).trim() : "member " + port + ": no check within 10 minutes");
        }
        a.close();
        b.destroy();
        c.destroy();
        b.waitFor();
        c.waitFor();
    }

    /** Stores record {@code i}; a 503 (a leader change while a member is down) is retried with the same key. */
    private static void store(InfinispanRaftStore a, long i, LongAdder retries) {
        String key = key(i);
        String owner = "owner-" + i;
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                IdempotencyRecord existing = a.claim(key, owner, "fp-" + i, Duration.ofMinutes(5)).record();
                if (!existing.owner().equals(owner)) {
                    throw new IllegalStateException("record " + i + " is owned by " + existing.owner());
                }
                if (existing.status() == RecordStatus.COMPLETED
                        || a.complete(key, owner, OUTCOME, Duration.ofHours(24))) {
                    return;
                }
                throw new IllegalStateException("record " + i + " was not completed");
            } catch (dev.idempotency.IdempotencyStoreUnavailableException e) {
                retries.increment();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        throw new IllegalStateException("record " + i + " was refused 100 times");
    }

    private static void member(int port, Path state, int records, long driver) throws Exception {
        InfinispanRaftStore store = start(port, state);
        long deadline = System.nanoTime() + Duration.ofHours(1).toNanos();
        while (!Files.exists(state.resolve("check"))) {
            if (System.nanoTime() > deadline || !ProcessHandle.of(driver).map(ProcessHandle::isAlive).orElse(false)) {
                store.close();
                System.exit(1);
            }
            Thread.sleep(500);
        }
        // Wait until this member applied everything (bounded), then check.
        long until = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (store.localSize() < records && System.nanoTime() < until) {
            Thread.sleep(500);
        }
        Files.writeString(state.resolve("check-" + port + ".txt"), check(store, port, state, records));
        store.close();
        System.exit(0);
    }

    /** Checks this member's copy of every record, again every second until none is missing, at most 2 minutes. */
    private static String check(InfinispanRaftStore store, int port, Path state, int records) throws Exception {
        long started = System.nanoTime();
        long missing;
        while (true) {
            missing = 0;
            for (long i = 0; i < records; i++) {
                IdempotencyRecord r = store.localCopy(key(i));
                if (r == null
                        || r.status() != RecordStatus.COMPLETED
                        || !java.util.Arrays.equals(r.outcome(), OUTCOME)) {
                    missing++;
                }
            }
            if (missing == 0 || System.nanoTime() - started > Duration.ofMinutes(2).toNanos()) {
                break;
            }
            Thread.sleep(1000);
        }
        long heap = usedAfterGc();
        return String.format(
                Locale.ROOT,
                "member %d: holds %d records, %d of %d missing or incomplete (checked for %d s); heap after GC %d MB (%.0f bytes a"
                        + " record); counted %d MB; state files %d MB",
                port,
                store.localSize(),
                missing,
                records,
                (System.nanoTime() - started) / 1_000_000_000,
                heap >> 20,
                heap / (double) records,
                store.localBytes() >> 20,
                size(state, port) >> 20);
    }

    private static long size(Path state, int port) throws IOException {
        try (Stream<Path> files = Files.walk(state)) {
            return files.filter(f -> Files.isRegularFile(f) && f.toString().contains("_" + port))
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
    }

    private static Process spawn(int port, Path state, int records, String heap) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-Xmx" + heap,
                        "-Djava.net.preferIPv4Stack=true",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ClusterVolume.class.getName(),
                        "member",
                        String.valueOf(port),
                        state.toString(),
                        String.valueOf(records),
                        String.valueOf(ProcessHandle.current().pid()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(state.resolve("member-" + port + ".log").toFile()))
                .start();
    }

    private static InfinispanRaftStore start(int port, Path state) {
        Properties p = new Properties();
        p.setProperty(InfinispanStores.BIND_PORT, String.valueOf(port));
        p.setProperty(
                InfinispanStores.INITIAL_HOSTS,
                PORTS.stream().map(n -> "127.0.0.1[" + n + "]").collect(Collectors.joining(",")));
        p.setProperty("idempotency.infinispan.cluster-name", "cluster-volume");
        Map<String, String> settings = Map.of(
                InfinispanStoreSettings.CONFIG, InfinispanStores.CLUSTER_CONFIG,
                InfinispanStoreSettings.STATE_DIR, state.toString(),
                InfinispanStoreSettings.MAX_BYTES, String.valueOf(Long.MAX_VALUE));
        return (InfinispanRaftStore)
                InfinispanStores.start(ConfigLookup.of(settings), p, ClusterVolume.class.getClassLoader());
    }

    private static String key(long i) {
        return String.format(Locale.ROOT, "%064x", i);
    }

    private static long perSecond(long n, long since) {
        return n * 1_000_000_000L / Math.max(1, System.nanoTime() - since);
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void log(String line) {
        System.out.println(java.time.LocalTime.now().withNano(0) + " " + line);
    }
}
