package dev.idempotency.it.toolkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.it.Deployments;
import dev.idempotency.it.toolkit.app.Billing;
import dev.idempotency.it.toolkit.app.JobRuns;
import dev.idempotency.it.toolkit.app.ReportJob1;
import dev.idempotency.it.toolkit.app.ReportJob2;
import dev.idempotency.it.toolkit.app.ToolkitApp;
import dev.idempotency.it.toolkit.app.ToolkitResource;
import dev.idempotency.spi.Races;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The toolkit in the container, in one deployment per store: a {@code @Schedule} job on two singleton
 * EJBs behind one cluster lock, the one-time token endpoint and filter over real HTTP, an {@code
 * IdempotentConsumer} CDI bean with its CDI event, and the injected Snowflake generator. {@link
 * ToolkitIT} runs it on the memory store on every server of the Maven profiles; {@code ToolkitOn*IT} on
 * the JPA, Redis and Infinispan stores on Payara Micro (what differs per server is the toolkit's use of
 * the container, which the memory run covers; what differs per store is the store's).
 *
 * <p>The persistent stores keep records across runs: every deployment names itself with a fresh
 * {@code idempotency.application}, so no record of an earlier run is in its way.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
abstract class ToolkitScenarios {

    /** An owner name of this run: the token bound counts per owner, and persistent stores remember. */
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    /**
     * The toolkit's deployment with more configuration lines.
     *
     * @param name the WAR's name
     * @param config lines of {@code microprofile-config.properties} that choose and configure the store
     */
    static WebArchive deployment(String name, String... config) {
        StringBuilder more = new StringBuilder();
        for (String line : config) {
            more.append(line).append('\n');
        }
        return Deployments.war(name)
                .addClasses(
                        ToolkitApp.class,
                        JobRuns.class,
                        ReportJob1.class,
                        ReportJob2.class,
                        Billing.class,
                        ToolkitResource.class)
                .addAsResource(
                        new StringAsset("idempotency.tokens.endpoint.enabled=true\n"
                                + "idempotency.tokens.owner=header:X-Session\n"
                                + "idempotency.ids.worker-id=7\n"
                                + more),
                        "META-INF/microprofile-config.properties");
    }

    @ArquillianResource
    URL deployed;

    private final HttpClient client = Deployments.httpClient();

    private URI uri(String path) {
        return Deployments.loopback(deployed).resolve("api/" + path);
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String token(String session) throws Exception {
        HttpResponse<String> r = send("POST", "idempotency/tokens", "X-Session", session);
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(""));
        Matcher m = Pattern.compile("\"token\":\"([^\"]+)\"").matcher(r.body());
        assertTrue(m.find(), r.body());
        assertTrue(r.body().contains("\"header\":\"Idempotency-Token\""), r.body());
        return m.group(1);
    }

    private static void assertProblem(HttpResponse<String> r, int status, String type) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(
                "application/problem+json",
                r.headers().firstValue("Content-Type").orElse(""));
        assertTrue(r.body().contains("\"type\":\"urn:idempotency-ee:problem:" + type + "\""), r.body());
    }

    /** The operations inspection resource is off unless configured: 404 problem, whoever asks (issue 15). */
    @Test
    void recordInspectionOverHttpIsOffByDefault() throws Exception {
        HttpResponse<String> r = send("POST", "idempotency/records/find", "Content-Type", "application/json");
        assertProblem(r, 404, "inspection-disabled");
        assertTrue(r.body().contains("idempotency.inspection.http.enabled"), r.body());
    }

    /**
     * Two singletons' timers fire every second for the same job; the lock "report" (atLeastFor 2 s) must
     * let the body run at most once per 2-second window, never concurrently, yet keep it running.
     */
    @Test
    void scheduledJobOnTwoBeansRunsOncePerLockWindow() throws Exception {
        // The timers fire from the deployment on: wait for four runs (at least 6 s of two beans firing
        // every second), at most 20 s.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String report;
        List<long[]> runs;
        while (true) {
            report = send("GET", "t/jobs").body();
            runs = jobRuns(report);
            if (runs.size() >= 4 || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(250);
        }
        String max =
                report.lines().filter(l -> l.startsWith("max=")).findFirst().orElse("");
        assertEquals("max=1", max, report);
        // Unlocked, two beans firing every second would run the job twice per second of the span.
        long span = runs.get(runs.size() - 1)[0] - runs.get(0)[0];
        assertTrue(runs.size() >= 3, "runs: " + runs.size() + "\n" + report);
        assertTrue(runs.size() <= span / 2_000 + 1, "runs: " + runs.size() + " in " + span + " ms\n" + report);
        for (int i = 1; i < runs.size(); i++) {
            long gap = runs.get(i)[0] - runs.get(i - 1)[0];
            // Timers fire on whole seconds; a window of 2 s admits the next run 2 s after the last start.
            assertTrue(gap >= 1_900, "run " + i + " started " + gap + " ms after the previous one\n" + report);
        }
    }

    /** The job's runs in a {@code t/jobs} report, one {@code start,end,...} line each. */
    private static List<long[]> jobRuns(String report) {
        List<long[]> runs = new ArrayList<>();
        for (String line : report.split("\n")) {
            if (!line.isBlank() && !line.startsWith("max=")) {
                String[] p = line.split(",");
                runs.add(new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])});
            }
        }
        return runs;
    }

    @Test
    void aOneTimeTokenIsAcceptedOnceAndEveryRefusalSaysWhy() throws Exception {
        String t = token("s1-" + run);
        HttpResponse<String> ok = send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", t);
        assertEquals(200, ok.statusCode(), ok.body());
        assertProblem(send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", t), 409, "token-used");
        assertProblem(send("POST", "t/orders", "X-Session", "s1-" + run), 400, "token-missing");
        String forged = "forged." + Long.toString(System.currentTimeMillis() + 3_600_000, 36);
        assertProblem(
                send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", forged), 400, "token-unknown");
        assertProblem(
                send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", "forged.token"),
                400,
                "token-unknown");
        // An issued token's random part with an expiry long past: expired.
        String expired = t.substring(0, t.indexOf('.')) + ".zz";
        assertProblem(
                send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", expired), 410, "token-expired");
        String other = token("s2-" + run);
        assertProblem(
                send("POST", "t/orders", "X-Session", "s1-" + run, "Idempotency-Token", other), 403, "token-foreign");
        assertProblem(send("POST", "t/orders", "Idempotency-Token", other), 400, "token-owner-missing");
        assertEquals(
                200,
                send("POST", "t/orders", "X-Session", "s2-" + run, "Idempotency-Token", other)
                        .statusCode());
    }

    /** The endpoint issues at most 20 tokens (the default bound) to one owner within a token's lifetime. */
    @Test
    void theTokenEndpointBoundsTheTokensOneOwnerGets() throws Exception {
        for (int i = 0; i < 20; i++) {
            token("flood-" + run);
        }
        HttpResponse<String> refused = send("POST", "idempotency/tokens", "X-Session", "flood-" + run);
        assertProblem(refused, 429, "token-limit");
        assertTrue(refused.headers().firstValue("Retry-After").isPresent(), refused.headers()::toString);
        token("not-the-flood-" + run);
    }

    /** 16 concurrent requests carry one token, 20 times over: exactly one order per token. */
    @Test
    void concurrentRequestsWithOneTokenPlaceOneOrder() throws Exception {
        int threads = 16;
        int rounds = 20;
        int before = Integer.parseInt(send("GET", "t/orders/count").body());
        Races races = new Races(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        int accepted = 0;
        try {
            for (int round = 0; round < rounds; round++) {
                String t = token("race-" + run);
                List<Future<Integer>> statuses = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    statuses.add(pool.submit(() -> {
                        races.await();
                        return send("POST", "t/orders", "X-Session", "race-" + run, "Idempotency-Token", t)
                                .statusCode();
                    }));
                }
                int wins = 0;
                for (Future<Integer> f : statuses) {
                    int s = f.get(2, TimeUnit.MINUTES);
                    if (s == 200) {
                        wins++;
                    } else {
                        assertEquals(409, s);
                    }
                }
                assertEquals(1, wins, "round " + round);
                accepted += wins;
            }
        } finally {
            pool.shutdownNow();
        }
        int after = Integer.parseInt(send("GET", "t/orders/count").body());
        assertEquals(rounds, accepted);
        assertEquals(before + rounds, after);
    }

    @Test
    void aMessageConsumerRunsOnceAndGivesUpAfterThreeAttempts() throws Exception {
        String ok = UUID.randomUUID().toString();
        assertEquals(
                "acknowledged",
                send("POST", "t/messages/" + ok + "?failures=1").body().replace("failed: run 1 fails", "acknowledged"));
        for (int i = 0; i < 5; i++) {
            assertEquals(
                    "acknowledged",
                    send("POST", "t/messages/" + ok + "?failures=1").body());
        }
        assertEquals("SUCCEEDED 2 2 []", send("GET", "t/messages/" + ok).body());

        String poison = UUID.randomUUID().toString();
        for (int i = 1; i <= 3; i++) {
            assertEquals(
                    "failed: run " + i + " fails",
                    send("POST", "t/messages/" + poison + "?failures=99").body());
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(
                    "acknowledged",
                    send("POST", "t/messages/" + poison + "?failures=99").body());
        }
        assertEquals(
                "FAILED 3 3 [3:false 3:true 3:true 3:true 3:true]",
                send("GET", "t/messages/" + poison).body());
    }

    @Test
    void theInjectedIdGeneratorUsesTheConfiguredWorkerId() throws Exception {
        String[] first = send("GET", "t/id").body().split(" ");
        String[] second = send("GET", "t/id").body().split(" ");
        assertEquals("7", first[1]);
        assertTrue(Long.parseLong(second[0]) > Long.parseLong(first[0]));
    }
}
