package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Infinispan store's RAFT cluster on Quarkus: two packaged apps on 127.0.0.1, each a member of one
 * cluster on the shipped {@code idempotency-infinispan-cluster.xml}, started as a user starts them. A retry
 * on the other node is replayed, concurrent requests with one key on both nodes run the method once, a CDI
 * method runs once per key across the nodes and a key reused with other arguments on the other node is
 * refused. Runs are counted by each app ({@link Executions}) and summed over both processes: a second run
 * on either node shows. Runs in the infinispan profile only (its build has infinispan-core and jgroups-raft).
 */
class ClusterOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(15);

    private static final List<PackagedApp> nodes = new ArrayList<>();
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        PackagedApp.assumeStore(
                "infinispan", "the app runs on another store (the infinispan profile selects Infinispan)");
        Path jar = PackagedApp.jar();
        Path dir = PackagedApp.log("cluster");
        int first = PackagedApp.port(0);
        // Each member's JGroups port p and its failure-detection port p + 50 (the shipped XML's offset).
        int a = clusterPort(first + 85);
        int b = clusterPort(a + 1);
        String hosts = "127.0.0.1[" + a + "],127.0.0.1[" + b + "]";
        String run = Long.toString(System.currentTimeMillis(), 36);
        List<CompletableFuture<PackagedApp>> starting = new ArrayList<>();
        int http = first + 90;
        for (int port : List.of(a, b)) {
            List<String> member = List.of(
                    "-Didempotency.infinispan.config=idempotency-infinispan-cluster.xml",
                    "-Didempotency.infinispan.initial-hosts=" + hosts,
                    "-Didempotency.infinispan.bind-port=" + port,
                    "-Didempotency.infinispan.cluster-name=quarkus-it-" + run,
                    "-Didempotency.infinispan.state-dir=" + dir.resolve("state-" + run + "-" + port));
            Path log = dir.resolve("node-" + port + ".log");
            int firstHttp = http;
            // Both at once: a member waits for a majority (both of two) before it serves.
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return PackagedApp.start(jar, log, firstHttp, "executions/orders/probe", member);
                } catch (Exception e) {
                    throw new IllegalStateException("node " + port + " did not start: " + e, e);
                }
            }));
            http += 5;
        }
        for (CompletableFuture<PackagedApp> node : starting) {
            nodes.add(node.get(PackagedApp.STARTUP.toSeconds() + 30, TimeUnit.SECONDS));
        }
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        nodes.forEach(PackagedApp::close);
    }

    @Test
    void bothNodesJoinedOneRaftCluster() {
        for (PackagedApp node : nodes) {
            assertThat(node.started())
                    .as("node started (exit code and output in %s)", node.log())
                    .isTrue();
            assertThat(node.output())
                    .as("the output of %s", node.log())
                    .contains("idempotency store: Infinispan cluster, RAFT member")
                    .doesNotContain("ISPN000714");
        }
    }

    @Test
    void aRetryOnTheOtherNodeIsReplayedWithoutRunningAgain() throws Exception {
        String body = order("cluster-replay", 0);
        HttpResponse<String> first = post(nodes.get(0), "orders", body, "key-cluster-replay");
        HttpResponse<String> retry = post(nodes.get(1), "orders", body, "key-cluster-replay");
        assertThat(first.statusCode())
                .as("first POST on node A answered %s", first.body())
                .isEqualTo(201);
        assertThat(retry.statusCode())
                .as("the retry on node B answered %s", retry.body())
                .isEqualTo(201);
        assertThat(retry.headers().firstValue("Idempotent-Replayed"))
                .as("the retry on node B was replayed")
                .hasValue("true");
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(runs("orders", "cluster-replay")).as("runs on both nodes").isEqualTo(1);
    }

    @Test
    void concurrentRequestsWithOneKeyOnBothNodesRunOnce() throws Exception {
        String body = order("cluster-concurrent", 300);
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(client.sendAsync(
                    nodes.get(i % 2).post("orders", body, "key-cluster-concurrent", CALL),
                    HttpResponse.BodyHandlers.ofString()));
        }
        List<String> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> r = call.get(CALL.toSeconds() + 5, TimeUnit.SECONDS);
            answers.add(r.statusCode()
                    + (r.headers().firstValue("Idempotent-Replayed").isPresent() ? " replayed" : ""));
        }
        assertThat(answers)
                .as("answers to six concurrent requests, three per node")
                .allMatch(a -> a.startsWith("201") || a.equals("409"))
                .contains("201");
        assertThat(runs("orders", "cluster-concurrent"))
                .as("runs on both nodes after six concurrent requests with one key (answered %s)", answers)
                .isEqualTo(1);
    }

    @Test
    void aCdiMethodRunsOncePerKeyAcrossTheNodesAndRefusesOtherArguments() throws Exception {
        HttpResponse<String> first = post(nodes.get(1), "payments/cluster-charge?cents=700", "", null);
        HttpResponse<String> again = post(nodes.get(0), "payments/cluster-charge?cents=700", "", null);
        HttpResponse<String> other = post(nodes.get(0), "payments/cluster-charge?cents=900", "", null);
        assertThat(first.statusCode())
                .as("Payments.charge on node B answered %s", first.body())
                .isEqualTo(200);
        assertThat(again.statusCode())
                .as("the repeat on node A answered %s", again.body())
                .isEqualTo(200);
        assertThat(again.body()).isEqualTo("cluster-charge:700");
        assertThat(other.statusCode())
                .as("the same order id with other cents on node A answered %s", other.body())
                .isEqualTo(422);
        assertThat(runs("charges", "cluster-charge"))
                .as("runs of Payments.charge on both nodes")
                .isEqualTo(1);
    }

    /** A port p on 127.0.0.1 with p + 50 free too, from {@code first}. */
    private static int clusterPort(int first) {
        for (int p = first; p < first + 100; p++) {
            if (PackagedApp.freePort(p) == p && PackagedApp.freePort(p + 50) == p + 50) {
                return p;
            }
        }
        throw new IllegalStateException(
                "no free port pair (p, p + 50) on 127.0.0.1 from " + first + ": set -Dit.port to another first port");
    }

    private static String order(String ref, long holdMillis) {
        return "{\"ref\":\"" + ref + "\",\"cents\":1250,\"holdMillis\":" + holdMillis + "}";
    }

    private static HttpResponse<String> post(PackagedApp node, String path, String json, String key) throws Exception {
        return client.send(node.post(path, json, key, CALL), HttpResponse.BodyHandlers.ofString());
    }

    /** The runs of {@code kind}/{@code ref} summed over both nodes. */
    private static int runs(String kind, String ref) throws Exception {
        int sum = 0;
        for (PackagedApp node : nodes) {
            sum += node.executions(client, kind, ref, CALL);
        }
        return sum;
    }
}
