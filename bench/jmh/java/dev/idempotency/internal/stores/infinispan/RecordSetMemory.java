package dev.idempotency.internal.stores.infinispan;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Heap retained per record by an Infinispan cluster member ({@link RecordSet}, the RAFT state
 * machine), against what it counts for {@code idempotency.infinispan.max-bytes}: applies N claims and
 * completions shaped as the engine writes them, and divides the growth of the heap used after a full
 * GC by N. Run by {@code bench/memory.sh}.
 */
public final class RecordSetMemory {

    private RecordSetMemory() {}

    /**
     * @param args number of records, outcome bytes
     * @throws Exception never: the commands are well formed
     */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int outcomeBytes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        RecordSet set = new RecordSet();
        fill(set, 0, 10_000, outcomeBytes);
        long before = usedAfterGc();
        long countedBefore = set.bytes();
        fill(set, 1_000_000, n, outcomeBytes);
        long after = usedAfterGc();
        System.out.printf(
                Locale.ROOT,
                "store=infinispan-cluster records=%d outcome_bytes=%d bytes_per_record=%.0f counted_per_record=%.0f%n",
                n,
                outcomeBytes,
                (after - before) / (double) n,
                (set.bytes() - countedBefore) / (double) n);
        java.lang.ref.Reference.reachabilityFence(set);
    }

    private static void fill(RecordSet set, int from, int n, int outcomeBytes) throws Exception {
        Instant now = Instant.now();
        for (int i = from; i < from + n; i++) {
            String key = String.format(Locale.ROOT, "%064x", i);
            String owner = "0123456789abcdef01234567-" + Long.toString(i, 36);
            String fingerprint = String.format(Locale.ROOT, "%064x", Integer.MAX_VALUE - i);
            apply(set, RecordSet.claimWithin(key, owner, fingerprint, now, Duration.ofMinutes(1), Long.MAX_VALUE, Long.MAX_VALUE));
            apply(set, RecordSet.complete(key, owner, new byte[outcomeBytes], now, Duration.ofHours(24), false));
        }
    }

    private static void apply(RecordSet set, byte[] command) throws Exception {
        set.apply(command, 0, command.length, false);
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
