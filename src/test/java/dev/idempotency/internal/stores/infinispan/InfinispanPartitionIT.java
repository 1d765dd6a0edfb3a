package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.infinispan.PartitionTraffic.Outcome;
import dev.idempotency.internal.stores.infinispan.app.PartitionApp;
import dev.idempotency.internal.stores.infinispan.app.PartitionExecutions;
import dev.idempotency.internal.stores.infinispan.app.PartitionResource;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.SoftAssertions;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real network partition of a three-node Infinispan cluster: three Payara Micro processes (their
 * own Hazelcast clustering off) on the shipped clustered configuration, each in a Linux network
 * namespace that this test creates ({@link PartitionNetwork}). JGroups runs over one bridge, the
 * test's HTTP traffic over another, so cutting a node's cluster link leaves it reachable for clients.
 * Executions are counted as rows in PostgreSQL table {@code ispn_exec}, which the nodes reach through
 * a forwarder in this JVM ({@link PartitionForwarder}); no node's memory is trusted.
 *
 * <p>While clients keep sending keys to every node ({@link PartitionTraffic}), the cluster link of
 * one node (system property {@code ispn.partition.minority}, default 0: the coordinator, the first
 * node started) is cut: its packets are dropped silently, so JGroups notices only through its failure
 * detection (FD_ALL3 of the shipped stack: 40 s, not settable by system property). The cut-off
 * minority must never run the guarded method and never answer a fresh 200 (only 503, 409, or a replay
 * of an outcome made before the cut or by the majority): without a RAFT majority none of its claims
 * commits. Once the two others have installed their two-member view and follow one RAFT leader among
 * them (a new one if the cut-off node led), every new key sent to them must get 200. After the heal
 * and the merge (MERGE3, tens of seconds), new keys sent at once may be refused but must not run
 * twice; once all three follow one leader they must all get 200. In the end no key may have run twice,
 * every key that got a 200 must have exactly one row, and every completed record must replay
 * identically on every node.
 *
 * <p>Needs root and iproute2 ({@code ip netns}, veth, bridge); without them the test fails, saying
 * so. Server logs, the run's summary and the network commands: {@code target/ispn-partition/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InfinispanPartitionIT {

    private static final int NODES = 3;
    private static final int MINORITY = Integer.getInteger("ispn.partition.minority", 0);
    private static final int[] MAJORITY =
            IntStream.range(0, NODES).filter(n -> n != MINORITY).toArray();

    /** Each node is alone in its namespace: the same ports for all. */
    private static final int HTTP_PORT = 8080;

    private static final int JGROUPS_PORT = 7800;
    private static final InetSocketAddress POSTGRES = new InetSocketAddress("127.0.0.1", 5432);
    private static final Path WORK = Path.of("target", "ispn-partition");

    /** This run's key prefix, so that runs never see each other's rows. */
    private static final String RUN = "pt" + Long.toString(System.currentTimeMillis(), 36);

    private static final Duration START_LIMIT = Duration.ofSeconds(180);
    private static final Duration BASELINE = Duration.ofSeconds(10);
    private static final Duration SPLIT_LIMIT = Duration.ofSeconds(120);
    private static final Duration MAJORITY_PHASE = Duration.ofSeconds(15);
    private static final Duration MERGE_LIMIT = Duration.ofSeconds(180);
    private static final Duration PACE = Duration.ofMillis(100);
    /**
     * A request's own limit: longer than a node takes to give up storing an outcome (a request in flight
     * on the node at the cut waits for that), so that every request gets an answer.
     */
    private static final Duration REQUEST_LIMIT = InfinispanRaftStore.SETTLE_PATIENCE
            .plus(InfinispanStoreSettings.DEFAULT_WRITE_TIMEOUT)
            .plusSeconds(20);

    /** The guarded method's lease: a key in flight on the cut-off node can be taken over after it. */
    private static final Duration LEASE = Duration.parse(PartitionExecutions.LEASE);

    private static final Duration TRAFFIC_HARD_LIMIT = Duration.ofMinutes(5);
    private static final int MERGE_WINDOW_KEYS = 10;
    private static final int HEALED_KEYS = 30;

    private static final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private static final Process[] nodes = new Process[NODES];
    private static final AtomicBoolean cleaned = new AtomicBoolean();
    private static PartitionNetwork network;
    private static PartitionForwarder forwarder;
    private static PartitionTraffic traffic;
    private static Thread cleanupHook;
    private static long clusterFormedNanos;
    private static long setupStartedNanos;

    @BeforeAll
    static void startCluster() throws Exception {
        setupStartedNanos = System.nanoTime();
        try (Connection c = DriverManager.getConnection(TestServices.postgresUrl(), "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS ispn_exec (id BIGSERIAL PRIMARY KEY, key TEXT NOT NULL,"
                    + " node TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())");
        }
        Files.createDirectories(WORK);
        cleanupHook = new Thread(InfinispanPartitionIT::cleanUp, "ispn-partition-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanupHook);

        network = PartitionNetwork.create(NODES); // fails the test, saying why, without namespaces
        forwarder = new PartitionForwarder(network.hostAddress(), POSTGRES);

        Path war = WORK.resolve("partition.war");
        partitionWar().as(ZipExporter.class).exportTo(war.toFile(), true);

        // The first node alone, so that it is the coordinator the others join (no split at boot).
        nodes[0] = startNode(0, war);
        // Alone, it has no RAFT majority (two of the three members): no leader yet.
        awaitMembers(Map.of(0, "1 DEGRADED_MODE"), START_LIMIT, "first node's start");
        for (int n = 1; n < NODES; n++) {
            nodes[n] = startNode(n, war);
        }
        awaitMembers(all(NODES + " AVAILABLE"), START_LIMIT, "cluster formation");
        awaitSteady(IntStream.range(0, NODES).toArray(), START_LIMIT, "the leader election after the nodes joined");
        clusterFormedNanos = System.nanoTime();
    }

    @AfterAll
    static void stopCluster() {
        cleanUp();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupHook);
        } catch (IllegalStateException | NullPointerException e) {
            // the JVM is shutting down, or the hook was never added
        }
    }

    /** Stops the clients, the nodes, the forwarder and deletes the network; once, whatever failed. */
    private static void cleanUp() {
        if (!cleaned.compareAndSet(false, true)) {
            return;
        }
        try {
            if (traffic != null) {
                traffic.stopSending(Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Process p : nodes) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
        for (Process p : nodes) {
            if (p != null) {
                try {
                    p.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (forwarder != null) {
            forwarder.close();
        }
        if (network != null) {
            network.close();
            try {
                Files.write(WORK.resolve("network-commands.txt"), network.commandLog());
            } catch (IOException e) {
                // only a record
            }
        }
    }

    @Test
    @Order(1)
    void threeNodesInThreeNamespacesFormOneCluster() throws Exception {
        for (int n = 0; n < NODES; n++) {
            HttpResponse<String> r = get(n, "/partition/api/members");
            assertThat(r.statusCode() + " " + r.body())
                    .as("members seen by node %d", n)
                    .isEqualTo("200 " + NODES + " AVAILABLE");
        }
    }

    @Test
    @Order(2)
    void aCutOffNodeNeverRunsTheMajorityServesAndAfterTheHealEveryKeyRanAtMostOnceAndReplaysEverywhere()
            throws Exception {
        long testStarted = System.nanoTime();
        traffic = new PartitionTraffic(
                http,
                (n, key) -> uri(n, "/partition/api/exec/" + key),
                NODES,
                RUN,
                PACE,
                REQUEST_LIMIT,
                TRAFFIC_HARD_LIMIT);
        traffic.start();
        Thread.sleep(BASELINE.toMillis());

        // One call in flight on the node to be cut off: its row is inserted before the cut, then it runs
        // on across the cut, so its outcome cannot be stored while the node is cut off.
        String cutKey = RUN + "-cut" + PartitionExecutions.SLOW_SUFFIX;
        CompletableFuture<Outcome> inFlightAtCut = sendAsync(MINORITY, cutKey);
        Thread.sleep(PartitionExecutions.SLOW_MILLIS / 2);

        // ------------------------------------------------------------ the cut
        long cutStartMillis = System.currentTimeMillis();
        long cutStart = System.nanoTime();
        network.cut(MINORITY);
        long cutDone = System.nanoTime();
        // New keys sent to the cut-off node right after the cut, whatever the client threads are busy
        // with (on a loaded machine both of the node's threads may be held by calls in flight at the cut,
        // which wait for the heal to store their outcome): each must get no fresh 200 and run nowhere.
        List<CompletableFuture<Outcome>> minorityProbes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            minorityProbes.add(sendAsync(MINORITY, RUN + "-probe" + i));
        }

        Map<Integer, String> split = new TreeMap<>();
        for (int n : MAJORITY) {
            split.put(n, MAJORITY.length + " AVAILABLE");
        }
        split.put(MINORITY, "1 DEGRADED_MODE");
        Map<Integer, Long> splitSeen = awaitMembers(split, SPLIT_LIMIT, "the split after the cut");
        long detected = Arrays.stream(MAJORITY).mapToLong(splitSeen::get).max().orElseThrow();
        // The majority follows one leader among its own (a new one, if the cut-off node led).
        long majoritySteady = awaitSteady(MAJORITY, SPLIT_LIMIT, "the majority's leader after the split");

        // The same key sent to the majority after its lease: the majority cannot tell the cut-off owner
        // from a dead one, so it takes the key over and runs it again (docs/infinispan-store.md).
        long leaseOver = cutStart + LEASE.toNanos();
        while (System.nanoTime() < leaseOver) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(leaseOver - System.nanoTime())));
        }
        CompletableFuture<Outcome> takeover = sendAsync(MAJORITY[0], cutKey);

        // The majority keeps serving for a while; then the clients stop sending. Requests still in
        // flight (on the cut-off node, one that ran before the cut may wait to store its outcome) go on.
        long majorityUntil = majoritySteady + MAJORITY_PHASE.toNanos();
        while (System.nanoTime() < majorityUntil) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(majorityUntil - System.nanoTime())));
        }
        boolean clientsEnded = traffic.stopSending(Duration.ofSeconds(30));
        assertThat(clientsEnded)
                .as("the client threads stopped sending within 30 s")
                .isTrue();

        // ------------------------------------------------------------ the heal
        long healStartMillis = System.currentTimeMillis();
        long healStart = System.nanoTime();
        network.heal(MINORITY);
        Map<Integer, Long> mergeSeen = awaitMembers(all(NODES + " AVAILABLE"), MERGE_LIMIT, "the merge after the heal");
        long merged =
                mergeSeen.values().stream().mapToLong(Long::longValue).max().orElseThrow();

        // New keys at once, while the rejoined node catches up with the leader's log: any of 200, 409,
        // 503 is fine, but nothing may run twice.
        List<Outcome> mergeWindowTraffic = sendToAll(RUN + "-m", MERGE_WINDOW_KEYS);
        long steady = awaitSteady(IntStream.range(0, NODES).toArray(), MERGE_LIMIT, "one leader after the merge");
        // New keys once all three follow one leader: each sent to the three nodes at once, all 200.
        List<Outcome> healedTraffic = sendToAll(RUN + "-h", HEALED_KEYS);
        // Every request sent before the heal has its answer by now, or within its own limit.
        long unanswered = traffic.awaitAnswers(REQUEST_LIMIT.plusSeconds(30));
        assertThat(unanswered)
                .as("requests of the partition phase without an outcome %s after the heal", REQUEST_LIMIT)
                .isZero();
        List<Outcome> partitionTraffic = new ArrayList<>(traffic.outcomes());
        partitionTraffic.add(inFlightAtCut.get(REQUEST_LIMIT.toSeconds() + 30, TimeUnit.SECONDS));
        partitionTraffic.add(takeover.get(REQUEST_LIMIT.toSeconds() + 30, TimeUnit.SECONDS));
        for (CompletableFuture<Outcome> probe : minorityProbes) {
            partitionTraffic.add(probe.get(REQUEST_LIMIT.toSeconds() + 30, TimeUnit.SECONDS));
        }

        // ------------------------------------------------------------ what happened
        List<Outcome> everything = new ArrayList<>(partitionTraffic);
        everything.addAll(mergeWindowTraffic);
        everything.addAll(healedTraffic);
        Map<String, List<Outcome>> byKey = everything.stream()
                .collect(Collectors.groupingBy(Outcome::key, LinkedHashMap::new, Collectors.toList()));
        Map<String, List<Row>> rows = rows();
        int rowsBeforeReplays = rows.values().stream().mapToInt(List::size).sum();
        Set<String> sentToMajorityBeforeSteady = partitionTraffic.stream()
                .filter(o -> o.node() != MINORITY && o.sentNanos() < majoritySteady)
                .map(Outcome::key)
                .collect(Collectors.toSet());
        List<Outcome> majorityAfterSteady = partitionTraffic.stream()
                .filter(o -> o.node() != MINORITY && o.sentNanos() >= majoritySteady)
                .filter(o -> !sentToMajorityBeforeSteady.contains(o.key()))
                .toList();
        List<Outcome> minorityAfterCut = partitionTraffic.stream()
                .filter(o -> o.node() == MINORITY && o.sentNanos() >= cutDone)
                .toList();
        Set<String> minorityInFlightAtCut = partitionTraffic.stream()
                .filter(o -> o.node() == MINORITY && o.sentNanos() < cutDone && o.doneNanos() >= cutStart)
                .map(Outcome::key)
                .collect(Collectors.toSet());
        // A key in flight on the cut-off node at the cut may run twice, like a key in flight on a node
        // that is killed: its claim committed before the cut, the method ran, its outcome could not be
        // stored while the node was cut off, and once the lease had ended the majority took the key
        // over (a takeover after the lease is what frees a dead owner's key; the majority cannot tell a
        // cut-off owner from a dead one). docs/infinispan-store.md, "During a partition", documents it.
        Map<String, List<Row>> rerunsAfterLease = rows.entrySet().stream()
                .filter(e -> minorityInFlightAtCut.contains(e.getKey())
                        && e.getValue().size() == 2)
                .filter(e -> {
                    Row first = e.getValue().get(0);
                    Row second = e.getValue().get(1);
                    return first.node().equals(name(MINORITY))
                            && !second.node().equals(name(MINORITY))
                            && second.atMillis() - first.atMillis() >= LEASE.toMillis() - 2000;
                })
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        // The first 200 of each key; of a key re-run after the lease, the majority's (the stored one).
        Map<String, String> firstBody = new LinkedHashMap<>();
        everything.stream()
                .filter(o -> o.status() == 200)
                .filter(o -> !(rerunsAfterLease.containsKey(o.key()) && o.node() == MINORITY))
                .sorted((a, b) -> Long.compare(a.doneNanos(), b.doneNanos()))
                .forEach(o -> firstBody.putIfAbsent(o.key(), o.body()));
        List<Row> minorityRowsWhileCut = rows.values().stream()
                .flatMap(List::stream)
                .filter(r -> r.node().equals(name(MINORITY))
                        && r.atMillis() >= cutStartMillis
                        && r.atMillis() < healStartMillis)
                .toList();

        // A 200 the minority may give after the cut: a replay of an outcome made before the cut or by
        // the majority (a node that has not noticed the split yet can read a record it owns).
        Map<String, Set<String>> legitimateBodies = new HashMap<>();
        everything.stream()
                .filter(o -> o.status() == 200 && (o.node() != MINORITY || o.doneNanos() < cutStart))
                .forEach(o -> legitimateBodies
                        .computeIfAbsent(o.key(), k -> new HashSet<>())
                        .add(o.body()));
        List<Outcome> minority200s =
                minorityAfterCut.stream().filter(o -> o.status() == 200).toList();

        // ------------------------------------------------------------ the summary, whatever fails next
        StringBuilder summary = new StringBuilder();
        summary.append(String.format(
                Locale.ROOT,
                "run %s: minority node-%d (cluster address %s), majority %s; JGroups names %s%n",
                RUN,
                MINORITY,
                network.clusterAddress(MINORITY),
                Arrays.toString(MAJORITY),
                jgroupsNames()));
        summary.append(String.format(
                Locale.ROOT,
                "setup (network, war, three nodes up and steady) %s; traffic before the cut %s%n",
                seconds(clusterFormedNanos - setupStartedNanos),
                seconds(cutStart - testStarted)));
        splitSeen.forEach((n, t) -> summary.append(
                String.format(Locale.ROOT, "cut -> node-%d says '%s': %s%n", n, split.get(n), seconds(t - cutStart))));
        summary.append(String.format(
                Locale.ROOT,
                "cut -> majority follows one leader: %s; cut -> clients stopped sending: %s%n",
                seconds(majoritySteady - cutStart),
                seconds(healStart - cutStart)));
        mergeSeen.forEach((n, t) -> summary.append(String.format(
                Locale.ROOT, "heal -> node-%d says '%d AVAILABLE': %s%n", n, NODES, seconds(t - healStart))));
        summary.append(String.format(
                Locale.ROOT,
                "heal -> all '%d AVAILABLE': %s; heal -> all follow one leader: %s%n",
                NODES,
                seconds(merged - healStart),
                seconds(steady - healStart)));
        summary.append(statusTable(partitionTraffic, cutStart, detected, majoritySteady));
        summary.append(String.format(
                Locale.ROOT,
                "minority 200s to requests sent after the cut: %d, of which replays of an outcome made before the"
                        + " cut or by the majority: %d%n",
                minority200s.size(),
                minority200s.stream()
                        .filter(o ->
                                legitimateBodies.getOrDefault(o.key(), Set.of()).contains(o.body()))
                        .count()));
        summary.append(String.format(
                Locale.ROOT,
                "merge window (%d keys sent to all three nodes at '%d AVAILABLE'): %s%n",
                MERGE_WINDOW_KEYS,
                NODES,
                statusCounts(mergeWindowTraffic)));
        summary.append(String.format(
                Locale.ROOT,
                "after steady (%d keys sent to all three nodes): %s%n",
                HEALED_KEYS,
                statusCounts(healedTraffic)));
        summary.append(String.format(
                Locale.ROOT,
                "keys sent %d (requests %d), keys with a 200 %d, rows %d; minority requests in flight at the cut %d"
                        + " (run again by the majority after the lease: %d %s);"
                        + " minority rows between cut and heal %d; majority requests for keys new after its"
                        + " leader was elected %d; forwarder connections %d (failed %d)%n",
                byKey.size(),
                everything.size(),
                firstBody.size(),
                rowsBeforeReplays,
                minorityInFlightAtCut.size(),
                rerunsAfterLease.size(),
                rerunsAfterLease,
                minorityRowsWhileCut.size(),
                majorityAfterSteady.size(),
                forwarder.accepted(),
                forwarder.failed()));
        summary.append(slowRequests(everything, cutStart));
        summary.append("server log records at WARNING or above since the cut (node level logger id: count):\n");
        loudRecordsSince(cutStartMillis)
                .forEach((k, v) ->
                        summary.append("  ").append(k).append(": ").append(v).append('\n'));
        report(summary.toString());

        // Every completed record is readable on every node: the first 200's body, and nothing runs.
        List<String> badReplays = replayEverywhere(firstBody);
        int rowsAfterReplays = rows().values().stream().mapToInt(List::size).sum();
        report(String.format(
                Locale.ROOT,
                "replays: %d keys x %d nodes, %d not identical; rows %d before, %d after; test %s%n",
                firstBody.size(),
                NODES,
                badReplays.size(),
                rowsBeforeReplays,
                rowsAfterReplays,
                seconds(System.nanoTime() - testStarted)));

        SoftAssertions soft = new SoftAssertions();

        // Before the cut: every request fully answered before it got 200.
        soft.assertThat(partitionTraffic.stream()
                        .filter(o -> o.doneNanos() < cutStart && o.status() != 200)
                        .map(InfinispanPartitionIT::describe)
                        .toList())
                .as("requests answered before the cut with something else than 200")
                .isEmpty();
        soft.assertThat(partitionTraffic.stream()
                        .filter(o -> o.doneNanos() < cutStart && o.status() == 200)
                        .count())
                .as("200s before the cut")
                .isGreaterThanOrEqualTo(10);

        // No answer anywhere is a 5xx other than 503, a 4xx other than 409, or missing.
        soft.assertThat(everything.stream()
                        .filter(o -> o.status() != 200 && o.status() != 409 && o.status() != 503)
                        .map(InfinispanPartitionIT::describe)
                        .toList())
                .as("answers other than 200, 409, 503 (-1: none within %s)", REQUEST_LIMIT)
                .isEmpty();

        // The minority: never a fresh 200 (a 200 there must replay an outcome made before the cut or by
        // the majority), and never an execution while cut off.
        soft.assertThat(minority200s.stream()
                        .filter(o -> !legitimateBodies
                                .getOrDefault(o.key(), Set.of())
                                .contains(o.body()))
                        .map(InfinispanPartitionIT::describe)
                        .toList())
                .as("fresh 200s from the cut-off node-%d", MINORITY)
                .isEmpty();
        soft.assertThat(minorityRowsWhileCut.stream()
                        .filter(r -> !minorityInFlightAtCut.contains(r.key()))
                        .map(Row::toString)
                        .toList())
                .as(
                        "executions on the cut-off node-%d between the cut and the heal (other than requests already in"
                                + " flight at the cut)",
                        MINORITY)
                .isEmpty();
        soft.assertThat(minorityAfterCut)
                .as("requests to the minority after the cut")
                .isNotEmpty();

        // The majority, once it has handled the split: every new key gets 200.
        soft.assertThat(majorityAfterSteady.stream()
                        .filter(o -> o.status() != 200)
                        .map(InfinispanPartitionIT::describe)
                        .toList())
                .as(
                        "majority answers other than 200 for keys new after its %d members followed one leader",
                        MAJORITY.length)
                .isEmpty();
        soft.assertThat(majorityAfterSteady.stream()
                        .map(Outcome::key)
                        .distinct()
                        .count())
                .as("keys new to the majority after it handled the split")
                .isGreaterThanOrEqualTo(20);

        // After the merge, once steady: new keys run once, each node answers alike.
        soft.assertThat(healedTraffic.stream()
                        .filter(o -> o.status() != 200)
                        .map(InfinispanPartitionIT::describe)
                        .toList())
                .as("answers other than 200 to new keys once all three followed one leader")
                .isEmpty();

        // Exactly-once, counted in PostgreSQL.
        soft.assertThat(rows.entrySet().stream()
                        .filter(e -> e.getValue().size() > 1 && !rerunsAfterLease.containsKey(e.getKey()))
                        .map(e -> e.getKey() + " " + e.getValue() + " answers " + answers(byKey.get(e.getKey())))
                        .toList())
                .as("keys that ran more than once (other than keys in flight on the cut-off node at the cut)")
                .isEmpty();
        soft.assertThat(firstBody.entrySet().stream()
                        .filter(e -> !rerunsAfterLease.containsKey(e.getKey()))
                        .filter(e -> rows.getOrDefault(e.getKey(), List.of()).size() != 1
                                || !e.getValue()
                                        .contains(" ran on "
                                                + rows.get(e.getKey()).get(0).node() + " as "))
                        .map(e -> e.getKey() + " rows " + rows.get(e.getKey()) + " answers "
                                + answers(byKey.get(e.getKey())))
                        .toList())
                .as("keys with a 200 that do not have exactly one row, made by the node the 200 names")
                .isEmpty();
        soft.assertThat(byKey.entrySet().stream()
                        .filter(e -> e.getValue().stream().allMatch(o -> o.status() != 200 && o.status() != -1))
                        .filter(e -> rows.containsKey(e.getKey()))
                        .map(e -> e.getKey() + " rows " + rows.get(e.getKey()) + " answers " + answers(e.getValue()))
                        .toList())
                .as("keys that ran although every request for them was refused")
                .isEmpty();
        soft.assertThat(byKey.entrySet().stream()
                        .filter(e -> e.getValue().stream()
                                        .filter(o -> o.status() == 200)
                                        .filter(o -> !(rerunsAfterLease.containsKey(o.key()) && o.node() == MINORITY))
                                        .map(Outcome::body)
                                        .distinct()
                                        .count()
                                > 1)
                        .map(e -> e.getKey() + " answers " + answers(e.getValue()))
                        .toList())
                .as("keys with two different 200 bodies (of a key in flight on the cut-off node at the cut and run"
                        + " again after the lease, the majority's)")
                .isEmpty();

        // The call in flight at the cut ran before it, and again on the majority after its lease: counted
        // apart, as documented, by the rule above.
        soft.assertThat(rows.getOrDefault(cutKey, List.of()).stream()
                        .filter(r -> r.node().equals(name(MINORITY)) && r.atMillis() < cutStartMillis)
                        .count())
                .as("rows of %s made by node-%d before the cut (rows: %s)", cutKey, MINORITY, rows.get(cutKey))
                .isEqualTo(1);
        soft.assertThat(rerunsAfterLease)
                .as("keys in flight on node-%d at the cut and run again by the majority after the lease", MINORITY)
                .containsKey(cutKey);

        // Replays after the merge.
        soft.assertThat(badReplays)
                .as("replays (POST of a completed key on each node) that did not return the first 200's body")
                .isEmpty();
        soft.assertThat(rowsAfterReplays).as("rows after the replays").isEqualTo(rowsBeforeReplays);
        soft.assertAll();
    }

    // ---------------------------------------------------------------- deployment and nodes

    private static JavaArchive projectJar() {
        return ShrinkWrap.create(ExplodedImporter.class, "idempotency-ee.jar")
                .importDirectory(new File("target/classes"))
                .as(JavaArchive.class);
    }

    private static WebArchive partitionWar() {
        File[] libs = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.infinispan:infinispan-core", "org.postgresql:postgresql")
                .withTransitivity()
                .asFile();
        // The server provides the Jakarta Transactions API.
        File[] kept = Arrays.stream(libs)
                .filter(f -> !f.getName().startsWith("jakarta.transaction-api"))
                .toArray(File[]::new);
        File[] raft = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.jgroups:jgroups-raft")
                .withoutTransitivity()
                .asFile();
        String initialHosts = IntStream.range(0, NODES)
                .mapToObj(n -> network.clusterAddress(n) + "[" + JGROUPS_PORT + "]")
                .collect(Collectors.joining(","));
        return ShrinkWrap.create(WebArchive.class, "partition.war")
                .addAsLibrary(projectJar())
                .addAsLibraries(kept)
                .addAsLibraries(raft)
                .addClasses(PartitionApp.class, PartitionExecutions.class, PartitionResource.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsResource(
                        new StringAsset(String.join(
                                "\n",
                                "idempotency.store=infinispan",
                                "idempotency.infinispan.config=" + InfinispanStores.CLUSTER_CONFIG,
                                "idempotency.infinispan.cluster-name=ispn-partition-" + RUN,
                                "idempotency.infinispan.initial-hosts=" + initialHosts,
                                "")),
                        "META-INF/microprofile-config.properties");
    }

    private static Process startNode(int n, Path war) throws IOException {
        String jar = System.getProperty("payara.microJar", "target/payara/payara-micro.jar");
        Path root = WORK.resolve("node-" + n);
        deleteTree(root); // a fresh Payara Micro root directory each run
        Files.createDirectories(root);
        List<String> java = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                "-Dispn.partition.node=" + name(n),
                "-Dispn.partition.jdbc=jdbc:postgresql://" + network.hostAddress() + ":" + forwarder.port() + "/"
                        + TestServices.PG_DATABASE,
                "-Didempotency.infinispan.bind-address=" + network.clusterAddress(n),
                "-Didempotency.infinispan.bind-port=" + JGROUPS_PORT,
                "-Didempotency.infinispan.state-dir="
                        + WORK.resolve("raft-state-" + RUN).toAbsolutePath(),
                "-jar",
                Path.of(jar).toAbsolutePath().toString(),
                "--nocluster",
                "--port",
                String.valueOf(HTTP_PORT),
                "--rootdir",
                root.toAbsolutePath().toString(),
                "--deploy",
                war.toAbsolutePath().toString());
        return new ProcessBuilder(network.inNamespace(n, java))
                .redirectErrorStream(true)
                .redirectOutput(log(n).toFile())
                .start();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static String name(int n) {
        return "node-" + n;
    }

    private static Path log(int n) {
        return WORK.resolve(name(n) + ".log");
    }

    private static Map<Integer, String> all(String body) {
        Map<Integer, String> expected = new TreeMap<>();
        for (int n = 0; n < NODES; n++) {
            expected.put(n, body);
        }
        return expected;
    }

    /**
     * Polls {@code GET /members} of the given nodes until each has answered its expected body once;
     * fails after {@code limit} with what each node last answered.
     *
     * @return per node, the {@link System#nanoTime} at which it first answered as expected
     */
    private static Map<Integer, Long> awaitMembers(Map<Integer, String> expected, Duration limit, String what)
            throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        Map<Integer, Long> seen = new TreeMap<>();
        Map<Integer, String> last = new TreeMap<>();
        while (true) {
            for (Map.Entry<Integer, String> e : expected.entrySet()) {
                int n = e.getKey();
                if (seen.containsKey(n)) {
                    continue;
                }
                if (!nodes[n].isAlive()) {
                    throw new AssertionError("node-" + n + " died during " + what + " (exit " + nodes[n].exitValue()
                            + "); see " + log(n));
                }
                try {
                    HttpResponse<String> r = get(n, "/partition/api/members");
                    last.put(n, r.statusCode() + " " + r.body());
                    if (r.statusCode() == 200 && r.body().equals(e.getValue())) {
                        seen.put(n, System.nanoTime());
                    }
                } catch (IOException ex) {
                    last.put(n, ex.toString());
                }
            }
            if (seen.size() == expected.size()) {
                return seen;
            }
            if (System.nanoTime() >= deadline) {
                throw new AssertionError("Within " + limit + " of " + what + ", not every node answered GET"
                        + " /partition/api/members as expected " + expected + "; last answers " + last + ", seen "
                        + seen.keySet() + ". Logs in " + WORK.toAbsolutePath() + "; network:\n" + network.describe());
            }
            Thread.sleep(500);
        }
    }

    /** How long the nodes must agree on one leader, polled every 500 ms, to count as steady. */
    private static final Duration STEADY_FOR = Duration.ofSeconds(5);

    /**
     * Polls {@code GET /leader} of the given nodes until all name the same RAFT leader, one of them, in
     * every round for {@link #STEADY_FOR}: the group has elected its leader and these nodes follow it.
     * One round is not enough: right after a merge all three can still name the old leader while the
     * merged view's coordinator starts the election that replaces it (a CI run, 26 Nov 04:15: 10 of 90
     * answers 503 in the second after such a round). Fails after {@code limit} with what each node last
     * answered.
     *
     * @return the {@link System#nanoTime} of the first round of the steady stretch
     */
    private static long awaitSteady(int[] which, Duration limit, String what) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long since = -1;
        String agreed = null;
        Map<Integer, String> last = new TreeMap<>();
        Set<String> candidates = Arrays.stream(which)
                .mapToObj(n -> "200 " + network.clusterAddress(n) + ":" + JGROUPS_PORT)
                .collect(Collectors.toSet());
        while (true) {
            for (int n : which) {
                if (!nodes[n].isAlive()) {
                    throw new AssertionError("node-" + n + " died during " + what + " (exit " + nodes[n].exitValue()
                            + "); see " + log(n));
                }
                try {
                    HttpResponse<String> r = get(n, "/partition/api/leader");
                    last.put(n, r.statusCode() + " " + r.body());
                } catch (IOException e) {
                    last.put(n, e.toString());
                }
            }
            Set<String> distinct = new HashSet<>(last.values());
            long now = System.nanoTime();
            if (distinct.size() == 1 && candidates.contains(distinct.iterator().next())) {
                String leader = distinct.iterator().next();
                if (!leader.equals(agreed)) {
                    agreed = leader;
                    since = now;
                } else if (now - since >= STEADY_FOR.toNanos()) {
                    return since;
                }
            } else {
                agreed = null;
            }
            if (System.nanoTime() >= deadline) {
                throw new AssertionError("Within " + limit + " of " + what + ", nodes " + Arrays.toString(which)
                        + " did not all answer GET /partition/api/leader with one leader among them; last answers "
                        + last + ". Logs in " + WORK.toAbsolutePath());
            }
            Thread.sleep(500);
        }
    }

    /** Each node's JGroups name (as Infinispan's log lines name it), read from its log. */
    private static Map<String, String> jgroupsNames() {
        Map<String, String> names = new TreeMap<>();
        Pattern local = Pattern.compile("ISPN000079: Channel `[^`]*` local address is `([^`]+)`");
        for (int n = 0; n < NODES; n++) {
            try {
                Matcher m = local.matcher(Files.readString(log(n), StandardCharsets.UTF_8));
                names.put(name(n), m.find() ? m.group(1) : "?");
            } catch (IOException e) {
                names.put(name(n), "?");
            }
        }
        return names;
    }

    // ---------------------------------------------------------------- requests

    private static URI uri(int n, String path) {
        return URI.create("http://" + network.clientAddress(n) + ":" + HTTP_PORT + path);
    }

    private static HttpResponse<String> get(int n, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(uri(n, path))
                        .timeout(Duration.ofSeconds(15))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest post(int n, String key) {
        return HttpRequest.newBuilder(uri(n, "/partition/api/exec/" + key))
                .timeout(REQUEST_LIMIT)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    /** Sends keys {@code <prefix><i>}, each to every node at once, a few keys at a time. */
    private static List<Outcome> sendToAll(String prefix, int count) throws Exception {
        List<Outcome> out = new ArrayList<>();
        for (int from = 0; from < count; from += 5) {
            List<CompletableFuture<Outcome>> inFlight = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 5); i++) {
                for (int n = 0; n < NODES; n++) {
                    inFlight.add(sendAsync(n, prefix + i));
                }
            }
            for (CompletableFuture<Outcome> f : inFlight) {
                out.add(f.get(REQUEST_LIMIT.toSeconds() + 30, TimeUnit.SECONDS));
            }
        }
        return out;
    }

    private static CompletableFuture<Outcome> sendAsync(int n, String key) {
        long sent = System.nanoTime();
        long sentMillis = System.currentTimeMillis();
        return http.sendAsync(post(n, key), HttpResponse.BodyHandlers.ofString())
                .handle((r, t) -> r != null
                        ? new Outcome(key, n, sent, sentMillis, System.nanoTime(), r.statusCode(), r.body())
                        : new Outcome(key, n, sent, sentMillis, System.nanoTime(), -1, String.valueOf(t)));
    }

    /** POSTs every key again on every node; the answers that are not a 200 with the expected body. */
    private static List<String> replayEverywhere(Map<String, String> expected) throws Exception {
        List<String> bad = new ArrayList<>();
        List<String> keys = new ArrayList<>(expected.keySet());
        for (int from = 0; from < keys.size(); from += 16) {
            List<CompletableFuture<Outcome>> inFlight = new ArrayList<>();
            for (String k : keys.subList(from, Math.min(keys.size(), from + 16))) {
                for (int n = 0; n < NODES; n++) {
                    inFlight.add(sendAsync(n, k));
                }
            }
            for (CompletableFuture<Outcome> f : inFlight) {
                Outcome o = f.get(REQUEST_LIMIT.toSeconds() + 30, TimeUnit.SECONDS);
                if (o.status() != 200 || !o.body().equals(expected.get(o.key()))) {
                    bad.add(describe(o) + " expected " + expected.get(o.key()));
                }
            }
        }
        return bad;
    }

    // ---------------------------------------------------------------- PostgreSQL

    /** One execution. */
    private record Row(String key, String node, long atMillis) {}

    /** This run's executions, per key. */
    private static Map<String, List<Row>> rows() throws Exception {
        Map<String, List<Row>> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(TestServices.postgresUrl(), "postgres", "");
                PreparedStatement ps = c.prepareStatement("SELECT key, node, (extract(epoch FROM at) * 1000)::bigint"
                        + " FROM ispn_exec WHERE key LIKE ? ORDER BY at")) {
            ps.setString(1, RUN + "-%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new Row(rs.getString(1), rs.getString(2), rs.getLong(3)));
                }
            }
        }
        return rows;
    }

    // ---------------------------------------------------------------- reporting

    private static String describe(Outcome o) {
        String body = o.body() == null ? "" : o.body().replace('\n', ' ');
        return "node-" + o.node() + " " + o.key() + " -> " + o.status() + " "
                + (body.length() > 200 ? body.substring(0, 200) + "..." : body);
    }

    private static String answers(List<Outcome> outcomes) {
        return outcomes == null
                ? "[]"
                : outcomes.stream()
                        .map(o -> "node-" + o.node() + ":" + o.status())
                        .collect(Collectors.joining(",", "[", "]"));
    }

    /**
     * Status counts per node by when the request was sent: before the cut, before the majority said
     * "2 AVAILABLE", before it followed one leader, after.
     */
    private static String statusTable(List<Outcome> outcomes, long cutStart, long detected, long steady) {
        StringBuilder s = new StringBuilder();
        String[] phases = {"sent before the cut", "sent cut..split seen", "sent split seen..steady", "sent after steady"
        };
        for (int p = 0; p < phases.length; p++) {
            int phase = p;
            for (int n = 0; n < NODES; n++) {
                int node = n;
                List<Outcome> in = outcomes.stream()
                        .filter(o -> o.node() == node)
                        .filter(o -> phaseOf(o.sentNanos(), cutStart, detected, steady) == phase)
                        .toList();
                s.append(String.format(
                        Locale.ROOT,
                        "%-24s node-%d%-11s: %s%n",
                        phases[p],
                        n,
                        n == MINORITY ? " (minority)" : "",
                        statusCounts(in)));
            }
        }
        return s.toString();
    }

    private static int phaseOf(long sent, long cutStart, long detected, long steady) {
        return sent < cutStart ? 0 : sent < detected ? 1 : sent < steady ? 2 : 3;
    }

    private static Map<Integer, Long> statusCounts(List<Outcome> outcomes) {
        return outcomes.stream().collect(Collectors.groupingBy(Outcome::status, TreeMap::new, Collectors.counting()));
    }

    /** The requests that took 5 s or more (at most 20 listed), with send time relative to the cut. */
    private static String slowRequests(List<Outcome> outcomes, long cutStart) {
        List<Outcome> slow = outcomes.stream()
                .filter(o -> o.doneNanos() - o.sentNanos() >= TimeUnit.SECONDS.toNanos(5))
                .sorted((a, b) -> Long.compare(a.sentNanos(), b.sentNanos()))
                .toList();
        StringBuilder s =
                new StringBuilder(String.format(Locale.ROOT, "requests that took 5 s or more: %d%n", slow.size()));
        for (Outcome o : slow.subList(0, Math.min(20, slow.size()))) {
            String body = o.body() == null ? "" : o.body().replace('\n', ' ');
            s.append(String.format(
                    Locale.ROOT,
                    "  node-%d %s sent at cut%+.1f s, took %s -> %d %s%n",
                    o.node(),
                    o.key(),
                    (o.sentNanos() - cutStart) / 1e9,
                    seconds(o.doneNanos() - o.sentNanos()),
                    o.status(),
                    body.length() > 120 ? body.substring(0, 120) + "..." : body));
        }
        return s.toString();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static void report(String text) throws IOException {
        System.out.print(text);
        Files.writeString(
                WORK.resolve("summary-" + RUN + ".txt"),
                text,
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    /**
     * A Payara record's first line: [time] [] [LEVEL] [id] [logger] [tid: ...] [timeMillis: T]
     * [levelValue: N] ...
     */
    private static final Pattern RECORD =
            Pattern.compile("^\\[[^\\]]*] \\[[^\\]]*] \\[([^\\]]*)] \\[[^\\]]*] \\[([^\\]]+)] .*"
                    + "\\[timeMillis: (\\d+)] \\[levelValue: (\\d+)] ?(.*)$");

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern MESSAGE_ID = Pattern.compile("\\b(ISPN\\d{6}|JGRP\\d{6})\\b");

    /**
     * The records at WARNING (900) or above from {@code org.infinispan}, {@code org.jgroups} and {@code
     * dev.idempotency} in each node's log, written at or after {@code sinceMillis}, counted by node,
     * level, logger and message id (or the message's start).
     */
    private static Map<String, Integer> loudRecordsSince(long sinceMillis) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        for (int n = 0; n < NODES; n++) {
            if (!Files.exists(log(n))) {
                continue;
            }
            String text = ANSI.matcher(Files.readString(log(n), StandardCharsets.UTF_8))
                    .replaceAll("");
            String[] lines = text.split("\n");
            for (int i = 0; i < lines.length; i++) {
                Matcher m = RECORD.matcher(lines[i]);
                if (!m.find() || Integer.parseInt(m.group(4)) < 900) {
                    continue;
                }
                String logger = m.group(2);
                if (!(logger.startsWith("org.infinispan")
                        || logger.startsWith("org.jgroups")
                        || logger.startsWith("dev.idempotency"))) {
                    continue;
                }
                if (Long.parseLong(m.group(3)) < sinceMillis) {
                    continue;
                }
                String message = m.group(5).strip();
                if ((message.isEmpty() || message.equals("[[")) && i + 1 < lines.length) {
                    message = lines[i + 1].strip();
                }
                Matcher id = MESSAGE_ID.matcher(message);
                // Key hashes and numbers vary from record to record: left out, so that alike records group.
                message = message.replaceAll("[0-9a-f]{8,}|\\d+", "#");
                String what = id.find() ? id.group(1) : message.length() > 90 ? message.substring(0, 90) : message;
                counts.merge("node-" + n + " " + m.group(1) + " " + logger + " " + what, 1, Integer::sum);
            }
        }
        return counts;
    }
}
