package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.infinispan.app.ClusterApp;
import dev.idempotency.internal.stores.infinispan.app.ExecResource;
import dev.idempotency.internal.stores.infinispan.app.Executions;
import dev.idempotency.internal.stores.infinispan.app.JoinedExecutions;
import dev.idempotency.internal.stores.infinispan.app.PlainApp;
import dev.idempotency.it.Deployments;
import java.io.File;
import java.io.IOException;
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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * Three Payara Micro processes on 127.0.0.1 (their own Hazelcast clustering off) that form one
 * Infinispan cluster through the shipped configuration. Executions are counted in PostgreSQL table
 * {@code ispn_exec}, outside every node's memory. The first node also runs a second application
 * that has no Infinispan on its class path and must work with the memory store.
 *
 * <p>The tests run in order: the last one kills a node with SIGKILL.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InfinispanPayaraClusterIT {

    private static final int NODES = 3;
    private static final int[] HTTP = {TestServices.port(8120), TestServices.port(8121), TestServices.port(8122)};
    private static final int[] JGROUPS = {TestServices.port(7820), TestServices.port(7821), TestServices.port(7822)};
    private static final int KEYS = 200;
    private static final String PG = TestServices.postgresUrl();
    private static final Path WORK = Path.of("target", "ispn-it");

    /** This run's key prefix, so that runs never see each other's rows. */
    private static final String RUN = "r" + Long.toString(System.currentTimeMillis(), 36);

    private static final List<Process> nodes = new ArrayList<>();
    private static final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /** Each key's body as first returned, for the replay checks. */
    private static final Map<String, String> firstBodies = new HashMap<>();

    @BeforeAll
    static void startCluster() throws Exception {
        try (Connection c = DriverManager.getConnection(PG, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS ispn_exec (id BIGSERIAL PRIMARY KEY, key TEXT NOT NULL,"
                    + " node TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())");
            // The process that ran it (a table from an older run has no such column).
            s.execute("ALTER TABLE ispn_exec ADD COLUMN IF NOT EXISTS pid BIGINT");
        }
        deleteTree(WORK); // a node's old root directory would deploy its old applications again
        Files.createDirectories(WORK);
        Path clusterWar = WORK.resolve("cluster.war");
        Path plainWar = WORK.resolve("plain.war");
        clusterWar().as(ZipExporter.class).exportTo(clusterWar.toFile(), true);
        plainWar().as(ZipExporter.class).exportTo(plainWar.toFile(), true);

        // The first node alone, so that it is the coordinator the others join (no split at boot).
        nodes.add(startNode(0, clusterWar, plainWar));
        awaitBody(0, "/cluster/api/members", b -> b.startsWith("1 "), Duration.ofSeconds(150));
        nodes.add(startNode(1, clusterWar, null));
        nodes.add(startNode(2, clusterWar, null));
        for (int n = 0; n < NODES; n++) {
            awaitBody(n, "/cluster/api/members", b -> b.equals("3 AVAILABLE"), Duration.ofSeconds(150));
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        for (Process p : nodes) {
            p.destroyForcibly();
        }
        for (Process p : nodes) {
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(1)
    void aDeploymentWithoutInfinispanRunsOnTheMemoryStore() throws Exception {
        String store = get(0, "/plain/api/store").body();
        assertThat(store).isEqualTo("dev.idempotency.internal.stores.memory.MemoryIdempotencyStore");
        String first = post(0, "/plain/api/run/" + RUN + "-plain");
        String again = post(0, "/plain/api/run/" + RUN + "-plain");
        assertThat(again).isEqualTo(first).endsWith(" run 1");
        assertThat(get(0, "/plain/api/runs").body()).isEqualTo("1");
    }

    @Test
    @Order(1)
    void aJoinedOperationCalledWithoutATransactionIsRefusedBeforeItRuns() throws Exception {
        String key = RUN + "-no-tx";
        HttpResponse<String> r = send(0, postRequest(0, "/cluster/api/joined-no-tx/" + key));
        assertThat(r.statusCode()).as("answer: %s", r.body()).isEqualTo(500);
        assertThat(r.body())
                .contains("ispn-it.joined-no-tx", "joined", "no JTA transaction is active", "separate mode");
        assertThat(executions(key)).as("rows of the refused call").isEmpty();
    }

    @Test
    @Order(2)
    void eachKeySentToAllThreeNodesAtOnceRunsExactlyOnceAndReplaysIdentically() throws Exception {
        long[] logMarks = logSizes();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            keys.add(RUN + "-k" + i);
        }
        int batch = 8;
        for (int from = 0; from < KEYS; from += batch) {
            List<String> slice = keys.subList(from, Math.min(KEYS, from + batch));
            Map<String, List<CompletableFuture<HttpResponse<String>>>> inFlight = new HashMap<>();
            for (String k : slice) {
                List<CompletableFuture<HttpResponse<String>>> three = new ArrayList<>();
                for (int n = 0; n < NODES; n++) {
                    three.add(http.sendAsync(
                            postRequest(n, "/cluster/api/exec/" + k), HttpResponse.BodyHandlers.ofString()));
                }
                inFlight.put(k, three);
            }
            for (Map.Entry<String, List<CompletableFuture<HttpResponse<String>>>> e : inFlight.entrySet()) {
                List<String> bodies = new ArrayList<>();
                for (CompletableFuture<HttpResponse<String>> f : e.getValue()) {
                    HttpResponse<String> r = f.get(120, TimeUnit.SECONDS);
                    assertThat(r.statusCode())
                            .as("status of %s: %s", e.getKey(), r.body())
                            .isEqualTo(200);
                    bodies.add(r.body());
                }
                assertThat(bodies)
                        .as("the three nodes' answers for %s", e.getKey())
                        .containsOnly(bodies.get(0));
                firstBodies.put(e.getKey(), bodies.get(0));
            }
        }
        Map<String, Integer> runs = executions(RUN + "-k%");
        assertThat(runs).hasSize(KEYS);
        assertThat(runs.values()).containsOnly(1);

        // Replays: every node answers every key with the first body, and nothing runs again.
        for (String k : keys) {
            for (int n = 0; n < NODES; n++) {
                assertThat(post(n, "/cluster/api/exec/" + k)).isEqualTo(firstBodies.get(k));
            }
        }
        assertThat(executions(RUN + "-k%").values()).hasSize(KEYS).containsOnly(1);
        System.out.println("executions per node: " + executionsPerNode(RUN + "-k%"));

        // Every key's duplicates raced on three nodes (losers' transactions rolled back): all of it
        // handled, so nothing above DEBUG in any server log, with Payara's default logging.
        assertThat(loudRecordsSince(logMarks))
                .as("records at INFO or above from org.infinispan or dev.idempotency while duplicates raced")
                .isEmpty();
    }

    @Test
    @Order(3)
    void afterTheOwnerIsKilledTheLeaseEndsAndARetryOnAnotherNodeRunsOnce() throws Exception {
        String key = RUN + "-slow";
        // Node 2 runs with ispn.it.sleepy: it records its execution, then sleeps holding the claim.
        CompletableFuture<HttpResponse<String>> doomed =
                http.sendAsync(postRequest(2, "/cluster/api/slow/" + key), HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (executions(key).isEmpty()) {
            assertThat(System.nanoTime())
                    .as("node 2 never started the slow call")
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
        // The claim is visible cluster-wide: another node refuses to run the key.
        assertThat(send(0, postRequest(0, "/cluster/api/slow/" + key)).statusCode())
                .isEqualTo(409);

        Process victim = nodes.get(2);
        victim.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful leave
        assertThat(victim.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long killedAt = System.nanoTime();
        assertThat(doomed.handle((r, t) -> r == null).get(30, TimeUnit.SECONDS))
                .as("the killed node must not have answered")
                .isTrue();

        awaitBody(0, "/cluster/api/members", b -> b.equals("2 AVAILABLE"), Duration.ofSeconds(60));
        awaitBody(1, "/cluster/api/members", b -> b.equals("2 AVAILABLE"), Duration.ofSeconds(60));

        // Retry on node 0 until the 3 s lease has ended: 409 before, then one takeover run.
        HttpResponse<String> retry = null;
        long retryDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < retryDeadline) {
            retry = send(0, postRequest(0, "/cluster/api/slow/" + key));
            if (retry.statusCode() == 200) {
                break;
            }
            Thread.sleep(250);
        }
        assertThat(retry).isNotNull();
        assertThat(retry.statusCode()).as("retry answer: %s", retry.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(60));
        assertThat(retry.body()).contains(" ran on node-0 ");
        assertThat(executions(key)).containsEntry(key, 2);
        assertThat(executionsPerNode(key)).containsEntry("node-2", 1).containsEntry("node-0", 1);

        // The takeover's outcome is what every surviving node replays; nothing runs a third time.
        assertThat(post(1, "/cluster/api/slow/" + key)).isEqualTo(retry.body());
        assertThat(executions(key)).containsEntry(key, 2);

        // The completed records survive the lost node: replays on both survivors, no new runs.
        for (Map.Entry<String, String> e : firstBodies.entrySet()) {
            assertThat(post(0, "/cluster/api/exec/" + e.getKey())).isEqualTo(e.getValue());
            assertThat(post(1, "/cluster/api/exec/" + e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(executions(RUN + "-k%").values()).hasSize(KEYS).containsOnly(1);
    }

    /**
     * Chaos: clients send every new key to all three nodes at once (and again, until one answers 200)
     * while a node is killed with SIGKILL every {@code ispn.chaos.kill-every} seconds and restarted,
     * for {@code ispn.chaos.seconds} (default 90; a kill waits for the last one's restart, so two or
     * three kills, never fewer than two). Executions are rows in PostgreSQL. Half of the clients call
     * an operation in the separate mode (its row commits on its own, its outcome is stored after), half
     * one in the joined mode (an EJB whose row commits in its JTA transaction, the outcome prepared
     * inside it).
     *
     * <p>Expected, on both: no key has two winners; every acknowledged key has its row, every 200 of a
     * key is the same body, and afterwards every node replays every acknowledged key without running
     * it. In the joined mode no key ever runs twice. In the separate mode a key may run a second time
     * only if the node that ran it first was killed after running it and before its outcome was
     * stored (the window of a store outside the operation's transaction, docs/infinispan-store.md);
     * the test counts those.
     */
    @Test
    @Order(4)
    void keysSentToAllNodesWhileNodesAreKilledNeverRunTwiceInTheJoinedMode() throws Exception {
        Duration length = Duration.ofSeconds(Long.getLong("ispn.chaos.seconds", 90));
        Duration killEvery = Duration.ofSeconds(Long.getLong("ispn.chaos.kill-every", 20));
        Path clusterWar = WORK.resolve("cluster.war");
        // The previous test killed node 2.
        restart(2, clusterWar);

        Mode separate = new Mode("separate", "/cluster/api/chaos/", RUN + "-c");
        Mode joined = new Mode("joined", "/cluster/api/chaos-joined/", RUN + "-j");
        List<long[]> kills = Collections.synchronizedList(new ArrayList<>());
        // The run lasts `length`, and longer if needed for two kills (restarts are slow on a busy
        // machine), but never more than 6 minutes beyond it.
        long started = System.nanoTime();
        long end = started + length.toNanos();
        long hardEnd = end + Duration.ofMinutes(6).toNanos();
        AtomicBoolean sending = new AtomicBoolean(true);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            Mode mode = c % 2 == 0 ? separate : joined;
            running.add(clients.submit(() -> {
                while (sending.get() && System.nanoTime() < hardEnd) {
                    String key = mode.prefix + mode.next.getAndIncrement();
                    if (!sendUntilAnswered(mode, key, Duration.ofSeconds(40))) {
                        mode.unanswered.add(key);
                    }
                }
                return null;
            }));
        }
        long nextKill = System.nanoTime() + killEvery.toNanos();
        for (int victim = 0;
                (System.nanoTime() < end || kills.size() < 2) && System.nanoTime() < hardEnd;
                victim = (victim + 1) % NODES) {
            long pause = nextKill - System.nanoTime();
            if (pause > 0) {
                Thread.sleep(Duration.ofNanos(pause).toMillis());
            }
            if (System.nanoTime() >= end && kills.size() >= 2) {
                break;
            }
            Process p = nodes.get(victim);
            kills.add(new long[] {victim, System.currentTimeMillis(), p.pid()});
            p.destroyForcibly(); // SIGKILL
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            restart(victim, clusterWar);
            nextKill = System.nanoTime() + killEvery.toNanos();
        }
        sending.set(false);
        for (Future<?> f : running) {
            f.get(2, TimeUnit.MINUTES);
        }
        clients.shutdown();
        long sendingSeconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        for (int n = 0; n < NODES; n++) {
            awaitBody(n, "/cluster/api/members", b -> b.equals("3 AVAILABLE"), Duration.ofSeconds(150));
        }

        List<String> report = new ArrayList<>();
        report.add("chaos: " + sendingSeconds + " s, kills " + kills.size() + " "
                + kills.stream()
                        .map(k -> "node-" + k[0] + " (pid " + k[2] + ")@" + k[1])
                        .toList());
        Verdict s = judge(separate, kills);
        Verdict j = judge(joined, kills);
        report.add(s.summary);
        report.add(j.summary);
        report.forEach(System.out::println);
        Files.write(WORK.resolve("chaos-" + RUN + ".txt"), report);

        assertThat(kills).as("nodes killed during the run").hasSizeGreaterThanOrEqualTo(2);
        for (Verdict v : List.of(s, j)) {
            assertThat(v.mode.bodies.size())
                    .as("%s: keys acknowledged", v.mode.name)
                    .isGreaterThan(50);
            assertThat(v.acknowledgedWithoutRow)
                    .as("%s: keys answered 200 without a row", v.mode.name)
                    .isEmpty();
            assertThat(v.differentBodies)
                    .as("%s: keys answered 200 with different bodies", v.mode.name)
                    .isEmpty();
            assertThat(v.badReplays)
                    .as("%s: replays that differ from the first 200", v.mode.name)
                    .isEmpty();
            assertThat(v.rowsAfterReplays)
                    .as("%s: rows after the replays", v.mode.name)
                    .isEqualTo(v.rows);
            assertThat(v.unexplained)
                    .as(
                            "%s: keys run again although the process that ran them first was not killed before",
                            v.mode.name)
                    .isEmpty();
        }
        assertThat(j.explained).as("joined: keys run twice").isEmpty();
        // jgroups-raft's report of a member whose committed log conflicts with the leader's (a follower
        // that applied a deposed leader's entries): the defect VerifyingRaft closes.
        assertThat(linesOfAllLogs("cannot delete entries"))
                .as("members whose committed RAFT log conflicts with the leader's")
                .isEmpty();
    }

    /** The lines of every node's log (all its processes) that contain {@code text}. */
    private static List<String> linesOfAllLogs(String text) throws IOException {
        List<String> found = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            for (String line : Files.readAllLines(WORK.resolve("node-" + n + ".log"), StandardCharsets.UTF_8)) {
                if (line.contains(text)) {
                    found.add("node-" + n + ": " + ANSI.matcher(line).replaceAll(""));
                }
            }
        }
        return found;
    }

    /** One guarded operation of the chaos run, and what its clients saw. */
    private static final class Mode {
        final String name;
        final String path;
        final String prefix;
        final AtomicInteger next = new AtomicInteger();
        final Map<String, List<String>> bodies = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
        final List<String> unanswered = Collections.synchronizedList(new ArrayList<>());

        Mode(String name, String path, String prefix) {
            this.name = name;
            this.path = path;
            this.prefix = prefix;
        }
    }

    /** What the rows, answers and replays of one mode's keys show. */
    private record Verdict(
            Mode mode,
            int rows,
            int rowsAfterReplays,
            List<String> explained,
            List<String> unexplained,
            List<String> acknowledgedWithoutRow,
            List<String> differentBodies,
            List<String> badReplays,
            String summary) {}

    /**
     * Reads the rows of a mode's keys; a second row of a key counts as explained if the process that ran it
     * first (its node and pid) was killed, before the second run. Then replays every acknowledged key on
     * every node.
     *
     * <p>The process, not the time of the row: PostgreSQL stamps a row when it starts the statement, and a
     * statement the process sent just before SIGKILL can start a few milliseconds after the test took the
     * time of the kill (26 Nov: a row 9 ms after it, on a loaded machine). A killed process writes nothing
     * after it died, so every row of it came before its death.
     */
    private static Verdict judge(Mode mode, List<long[]> kills) throws Exception {
        Map<String, List<Object[]>> rows = new HashMap<>();
        try (Connection c = DriverManager.getConnection(PG, "postgres", "");
                PreparedStatement ps = c.prepareStatement(
                        "SELECT key, node, (extract(epoch FROM at) * 1000)::bigint, coalesce(pid, -1)"
                                + " FROM ispn_exec WHERE key LIKE ? ORDER BY key, at, id")) {
            ps.setString(1, mode.prefix + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new Object[] {rs.getString(2), rs.getLong(3), rs.getLong(4)});
                }
            }
        }
        List<String> explained = new ArrayList<>();
        List<String> doubles = new ArrayList<>();
        for (Map.Entry<String, List<Object[]>> e : rows.entrySet()) {
            List<Object[]> r = e.getValue();
            for (int i = 1; i < r.size(); i++) {
                String firstNode = (String) r.get(i - 1)[0];
                long ranAt = (Long) r.get(i - 1)[1];
                long firstPid = (Long) r.get(i - 1)[2];
                long againAt = (Long) r.get(i)[1];
                boolean killedBetween = kills.stream()
                        .anyMatch(k -> ("node-" + k[0]).equals(firstNode) && k[2] == firstPid && k[1] <= againAt);
                String line = e.getKey() + ": ran on " + firstNode + " (pid " + firstPid + ") at " + ranAt
                        + ", again on " + r.get(i)[0] + " at " + againAt;
                (killedBetween ? explained : doubles).add(line);
            }
        }
        List<String> acknowledgedWithoutRow = new ArrayList<>();
        List<String> differentBodies = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : mode.bodies.entrySet()) {
            if (!rows.containsKey(e.getKey())) {
                acknowledgedWithoutRow.add(e.getKey());
            }
            if (e.getValue().stream().distinct().count() > 1) {
                differentBodies.add(e.getKey() + ": " + e.getValue());
            }
        }
        int rowCount = rows.values().stream().mapToInt(List::size).sum();
        // Every acknowledged key replays its body on every node, and nothing runs again.
        ExecutorService replays = Executors.newFixedThreadPool(6);
        List<Future<String>> replayed = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : mode.bodies.entrySet()) {
            for (int n = 0; n < NODES; n++) {
                int node = n;
                replayed.add(replays.submit(() -> {
                    HttpResponse<String> r = send(node, postRequest(node, mode.path + e.getKey()));
                    return r.statusCode() == 200 && r.body().equals(e.getValue().get(0))
                            ? null
                            : e.getKey() + " on node " + node + ": " + r.statusCode() + " " + r.body();
                }));
            }
        }
        List<String> badReplays = new ArrayList<>();
        for (Future<String> f : replayed) {
            String bad = f.get(2, TimeUnit.MINUTES);
            if (bad != null) {
                badReplays.add(bad);
            }
        }
        replays.shutdown();
        int rowsAfter = executions(mode.prefix + "%").values().stream()
                .mapToInt(Integer::intValue)
                .sum();
        String summary = mode.name + ": keys sent " + mode.next.get() + ", acknowledged " + mode.bodies.size()
                + ", not answered within 40 s " + mode.unanswered.size() + ", statuses " + mode.statuses
                + ", keys with a row " + rows.size() + ", rows " + rowCount
                + ", runs after the first explained by a kill of the first node " + explained.size() + " " + explained
                + ", unexplained " + doubles;
        return new Verdict(
                mode,
                rowCount,
                rowsAfter,
                explained,
                doubles,
                acknowledgedWithoutRow,
                differentBodies,
                badReplays,
                summary);
    }

    /**
     * Sends {@code key} to all three nodes at once, again every 300 ms until one answers 200 or {@code
     * limit} passed; records every 200 body and every status (a node that is down counts as "down").
     */
    private static boolean sendUntilAnswered(Mode mode, String key, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            List<CompletableFuture<HttpResponse<String>>> three = new ArrayList<>();
            for (int n = 0; n < NODES; n++) {
                three.add(http.sendAsync(postRequest(n, mode.path + key), HttpResponse.BodyHandlers.ofString()));
            }
            boolean answered = false;
            for (CompletableFuture<HttpResponse<String>> f : three) {
                String status;
                try {
                    HttpResponse<String> r = f.get(100, TimeUnit.SECONDS);
                    status = String.valueOf(r.statusCode());
                    if (r.statusCode() == 200) {
                        mode.bodies
                                .computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                                .add(r.body());
                        answered = true;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    status = "down";
                }
                mode.statuses.computeIfAbsent(status, x -> new AtomicInteger()).incrementAndGet();
            }
            if (answered) {
                return true;
            }
            Thread.sleep(300);
        }
        return false;
    }

    /**
     * Starts node {@code n} again, as a fresh process on an empty root directory (Payara Micro would
     * otherwise redeploy what its old root holds next to {@code --deploy}), and waits until all three
     * nodes see a cluster of three.
     */
    private static void restart(int n, Path clusterWar) throws Exception {
        deleteTree(WORK.resolve("node-" + n));
        nodes.set(n, startNode(n, clusterWar, null));
        for (int m = 0; m < NODES; m++) {
            awaitBody(m, "/cluster/api/members", b -> b.equals("3 AVAILABLE"), Duration.ofSeconds(180));
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    // ---------------------------------------------------------------- deployments and nodes

    private static JavaArchive projectJar() {
        return ShrinkWrap.create(ExplodedImporter.class, "idempotency-ee.jar")
                .importDirectory(new File("target/classes"))
                .as(JavaArchive.class);
    }

    private static WebArchive clusterWar() {
        File[] libs = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.infinispan:infinispan-core")
                .withTransitivity()
                .asFile();
        // The server provides the Jakarta Transactions API.
        File[] kept = Arrays.stream(libs)
                .filter(f -> !f.getName().startsWith("jakarta.transaction-api"))
                .toArray(File[]::new);
        // RAFT for the cluster's records; its own dependencies are optional, and JGroups is Infinispan's.
        File[] raft = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.jgroups:jgroups-raft")
                .withoutTransitivity()
                .asFile();
        WebArchive war = ShrinkWrap.create(WebArchive.class, "cluster.war")
                .addAsLibrary(projectJar())
                .addAsLibraries(kept)
                .addAsLibraries(raft)
                .addClasses(ClusterApp.class, Executions.class, ExecResource.class, JoinedExecutions.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsResource(
                        new StringAsset(String.join(
                                "\n",
                                "idempotency.store=infinispan",
                                "idempotency.infinispan.config=" + InfinispanStores.CLUSTER_CONFIG,
                                "idempotency.infinispan.cluster-name=ispn-it-" + RUN,
                                "idempotency.infinispan.initial-hosts=127.0.0.1[" + JGROUPS[0] + "],127.0.0.1["
                                        + JGROUPS[1] + "],127.0.0.1[" + JGROUPS[2] + "]",
                                "idempotency.lease=PT3S",
                                JoinedExecutions.class.getName() + "/chaosJoined/Idempotent/transaction=joined",
                                Executions.class.getName() + "/joinedWithoutTransaction/Idempotent/transaction=joined",
                                "")),
                        "META-INF/microprofile-config.properties");
        // The joined operation's rows commit in its JTA transaction: a data source of the server.
        return Deployments.withPostgres(war, "java:app/jdbc/chaos");
    }

    private static WebArchive plainWar() {
        return ShrinkWrap.create(WebArchive.class, "plain.war")
                .addAsLibrary(projectJar())
                .addClasses(PlainApp.class, PlainApp.Activator.class, PlainApp.Counter.class, PlainApp.Resource.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    private static Process startNode(int n, Path clusterWar, Path plainWar) throws IOException {
        String jar = System.getProperty("payara.microJar", "target/payara/payara-micro.jar");
        Path root = WORK.resolve("node-" + n);
        Files.createDirectories(root);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                "-Dispn.it.node=node-" + n,
                "-Dispn.it.sleepy=" + (n == 2),
                "-Didempotency.infinispan.bind-port=" + JGROUPS[n],
                // The RAFT logs outlive a node's process and its root directory, as on a real disk.
                "-Didempotency.infinispan.state-dir="
                        + WORK.resolve("raft-state").toAbsolutePath(),
                "-jar",
                jar,
                "--nocluster",
                "--port",
                String.valueOf(HTTP[n]),
                "--rootdir",
                root.toAbsolutePath().toString(),
                "--deploy",
                clusterWar.toAbsolutePath().toString()));
        if (plainWar != null) {
            cmd.add("--deploy");
            cmd.add(plainWar.toAbsolutePath().toString());
        }
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        WORK.resolve("node-" + n + ".log").toFile()))
                .start();
    }

    // ---------------------------------------------------------------- server logs

    /** A Payara record's first line: [time] [] [LEVEL] [] [logger] [tid: ...] ... [levelValue: N] [[ */
    private static final Pattern RECORD = Pattern.compile(
            "^\\[[^\\]]*] \\[[^\\]]*] \\[([^\\]]*)] \\[[^\\]]*] \\[([^\\]]+)] .*\\[levelValue: (\\d+)]");

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");

    private static long[] logSizes() throws IOException {
        long[] sizes = new long[NODES];
        for (int n = 0; n < NODES; n++) {
            sizes[n] = Files.size(WORK.resolve("node-" + n + ".log"));
        }
        return sizes;
    }

    /**
     * The records at INFO (800) or above that loggers {@code org.infinispan*} and {@code
     * dev.idempotency*} wrote to each node's log after {@code marks}, each as "node level logger:
     * first line of the message".
     */
    private static List<String> loudRecordsSince(long[] marks) throws IOException {
        List<String> loud = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            byte[] all = Files.readAllBytes(WORK.resolve("node-" + n + ".log"));
            String text = new String(all, (int) marks[n], all.length - (int) marks[n], StandardCharsets.UTF_8);
            String[] lines = ANSI.matcher(text).replaceAll("").split("\n");
            for (int i = 0; i < lines.length; i++) {
                Matcher m = RECORD.matcher(lines[i]);
                if (m.find()
                        && Integer.parseInt(m.group(3)) >= 800
                        && (m.group(2).startsWith("org.infinispan")
                                || m.group(2).startsWith("dev.idempotency"))) {
                    String message = i + 1 < lines.length ? lines[i + 1].strip() : "";
                    loud.add("node-" + n + " " + m.group(1) + " " + m.group(2) + ": " + message);
                }
            }
        }
        return loud;
    }

    // ---------------------------------------------------------------- HTTP and SQL helpers

    private static HttpRequest postRequest(int node, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP[node] + path))
                .timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static HttpResponse<String> send(int node, HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String post(int node, String path) throws Exception {
        HttpResponse<String> r = send(node, postRequest(node, path));
        assertThat(r.statusCode())
                .as("POST %s on node %d: %s", path, node, r.body())
                .isEqualTo(200);
        return r.body();
    }

    private static HttpResponse<String> get(int node, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP[node] + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Polls a GET until its 200 body satisfies the test, or fails after {@code limit}. */
    private static void awaitBody(int node, String path, Predicate<String> ok, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!nodes.get(node).isAlive()) {
                throw new AssertionError("node " + node + " died; see " + WORK.resolve("node-" + node + ".log"));
            }
            try {
                HttpResponse<String> r = get(node, path);
                last = r.statusCode() + " " + r.body();
                if (r.statusCode() == 200 && ok.test(r.body())) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("node " + node + " did not get ready within " + limit + " (" + path + " -> " + last
                + "); see " + WORK.resolve("node-" + node + ".log"));
    }

    /** Executions per key for keys LIKE the pattern. */
    private static Map<String, Integer> executions(String like) throws Exception {
        return countBy("key", like);
    }

    private static Map<String, Integer> executionsPerNode(String like) throws Exception {
        return countBy("node", like);
    }

    private static Map<String, Integer> countBy(String column, String like) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        try (Connection c = DriverManager.getConnection(PG, "postgres", "");
                PreparedStatement ps = c.prepareStatement(
                        "SELECT " + column + ", count(*) FROM ispn_exec WHERE key LIKE ? GROUP BY " + column)) {
            ps.setString(1, like);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return counts;
    }
}
