package dev.idempotency.bench;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.internal.stores.memory.MemoryStoreSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * Heap retained per stored record: fills a store with N COMPLETED records shaped as the engine
 * writes them (64-hex key, owner token, 64-hex fingerprint, an outcome of the given size), and
 * divides the growth of the heap used after a full GC by N. Not a JMH benchmark: it measures space,
 * once, in a fresh JVM. Run by {@code bench/memory.sh}:
 *
 * <pre>
 * bash bench/memory.sh                   # memory and infinispan, 200,000 records, outcomes of 0 and 200 bytes
 * </pre>
 */
public final class RecordMemory {

    private RecordMemory() {}

    /**
     * Measures one store.
     *
     * @param args store ({@code memory} or {@code infinispan}), number of records, outcome bytes
     * @throws Exception when the store cannot start
     */
    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "memory";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int outcomeBytes = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        IdempotencyStore store =
                switch (kind) {
                    // Unbounded: the default limits would refuse the records measured.
                    case "memory" -> new MemoryIdempotencyStore(
                            java.time.Clock.systemUTC(), new MemoryStoreSettings(Long.MAX_VALUE, Long.MAX_VALUE));
                    case "infinispan" -> InfinispanStores.start(
                            ConfigLookup.none(), new Properties(), RecordMemory.class.getClassLoader());
                    default -> throw new IllegalArgumentException("store must be memory or infinispan, not " + kind);
                };
        Duration lease = Duration.ofMinutes(1);
        Duration ttl = Duration.ofHours(24);
        // A warm-up round that stays in the store and in the baseline, so that the store's lazily built
        // structures and the first table resizes are not counted.
        fill(store, 0, 10_000, outcomeBytes, lease, ttl);
        long before = usedAfterGc();
        fill(store, 1_000_000, n, outcomeBytes, lease, ttl);
        long after = usedAfterGc();
        double perRecord = (after - before) / (double) n;
        System.out.printf(
                Locale.ROOT,
                "store=%s records=%d outcome_bytes=%d heap_before=%d heap_after=%d bytes_per_record=%.0f%n",
                kind,
                n,
                outcomeBytes,
                before,
                after,
                perRecord);
        Reference.reachabilityFence(store);
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    private static void fill(IdempotencyStore store, int from, int n, int outcomeBytes, Duration lease, Duration ttl) {
        for (int i = from; i < from + n; i++) {
            String key = key(i);
            String owner = owner(i);
            if (!store.claim(key, owner, fingerprint(i), lease).claimed()
                    || !store.complete(key, owner, new byte[outcomeBytes], ttl)) {
                throw new IllegalStateException("record " + i + " was not stored");
            }
        }
    }

    private static String key(int i) {
        return String.format(Locale.ROOT, "%064x", i);
    }

    private static String owner(int i) {
        // The engine's owner token: 24 hex digits of the engine, "-", a base-36 counter.
        return "0123456789abcdef01234567-" + Long.toString(i, 36);
    }

    private static String fingerprint(int i) {
        return String.format(Locale.ROOT, "%064x", Integer.MAX_VALUE - i);
    }

    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
