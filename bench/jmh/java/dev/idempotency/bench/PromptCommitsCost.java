package dev.idempotency.bench;

import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.infinispan.ClusterNodes;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What it costs an Infinispan cluster that its leader tells followers of each commit at once ({@code
 * VerifyingRaft.promptCommits}, the store's default, which lets a follower's waiting duplicates replay
 * within a round trip of the completion): guarded calls per second (a new key claimed and completed)
 * with it on and off, in alternating rounds on the same three members (in this JVM, JGroups ports
 * 7886-7888, moved by {@code IDEMPOTENCY_TEST_PORT_OFFSET}), the calls sent through a follower.
 *
 * <pre>
 *   bash bench/prompt-commits.sh [rounds] [seconds per round] [callers,...] [fsync]   # 6 3 1,16,64 false
 * </pre>
 *
 * Printed per caller count: the median calls per second on and off, and the median of the rounds'
 * on/off ratios (each pairs the two settings run one after the other).
 */
public final class PromptCommitsCost {

    private PromptCommitsCost() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Integer> callers = List.of((args.length > 2 ? args[2] : "1,16,64").split(",")).stream()
                .map(Integer::valueOf)
                .toList();
        boolean fsync = args.length > 3 && Boolean.parseBoolean(args[3]);
        List<Integer> ports = List.of(TestServices.port(7886), TestServices.port(7887), TestServices.port(7888));
        ClusterNodes cluster = new ClusterNodes(
                "prompt-commits",
                ports,
                Map.of(
                        InfinispanStoreSettings.FSYNC, String.valueOf(fsync),
                        InfinispanStoreSettings.MAX_ENTRIES, String.valueOf(Long.MAX_VALUE),
                        InfinispanStoreSettings.MAX_BYTES, String.valueOf(Long.MAX_VALUE)));
        InfinispanRaftStore[] members = new InfinispanRaftStore[ports.size()];
        try {
            for (int i = 0; i < members.length; i++) {
                members[i] = cluster.start(ports.get(i));
            }
            ClusterNodes.awaitLeader(Duration.ofSeconds(60), members);
            InfinispanRaftStore driver = members[0].raftId().equals(members[0].leader()) ? members[1] : members[0];
            for (int n : callers) {
                ClusterScaling.run(driver, n, seconds); // warm-up
                List<Double> on = new ArrayList<>();
                List<Double> off = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    boolean onFirst = r % 2 == 0; // alternate the order: neither side always runs second
                    double first = round(driver, members, onFirst, n, seconds);
                    double second = round(driver, members, !onFirst, n, seconds);
                    double a = onFirst ? first : second;
                    double b = onFirst ? second : first;
                    on.add(a);
                    off.add(b);
                    ratios.add(a / b);
                }
                System.out.printf(
                        Locale.ROOT,
                        "prompt-commits fsync=%s callers=%d rounds=%d on=%.0f off=%.0f calls/s (medians)"
                                + " on/off=%.2f (median of rounds; min %.2f, max %.2f) leader=%s driver=%s%n",
                        fsync,
                        n,
                        rounds,
                        median(on),
                        median(off),
                        median(ratios),
                        Collections.min(ratios),
                        Collections.max(ratios),
                        driver.leader(),
                        driver.raftId());
            }
        } finally {
            for (int i = members.length - 1; i >= 0; i--) {
                if (members[i] != null) {
                    members[i].close();
                }
            }
        }
    }

    private static double round(
            InfinispanRaftStore driver, InfinispanRaftStore[] members, boolean prompt, int callers, int seconds)
            throws InterruptedException {
        ClusterNodes.promptCommits(prompt, members);
        return ClusterScaling.run(driver, callers, seconds);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
