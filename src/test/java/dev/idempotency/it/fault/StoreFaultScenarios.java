package dev.idempotency.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.internal.stores.TcpProxy;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.EffectRows;
import dev.idempotency.it.fault.app.FaultApp;
import dev.idempotency.it.fault.app.SettlementsResource;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A store whose connections go through a TCP proxy of the test's own, while the resource's effect rows
 * go straight to PostgreSQL. The proxy cuts every store connection (reset) and refuses new ones for a
 * few seconds:
 *
 * <ul>
 *   <li>right after the business commit and before the outcome is stored, for 100 keys: no key runs
 *       twice, every request is answered 201 once the store is back, and every retry replays it;
 *   <li>with the pool full of connections the cut killed: new keys are served again within 10 s of
 *       the heal.
 * </ul>
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
abstract class StoreFaultScenarios {

    private static final int BATCHES = 4;
    private static final int BATCH = 25;
    private static final Duration CUT = Duration.ofSeconds(2);
    /** How long the resource waits after its effect: the window in which the test cuts. */
    private static final long PAUSE_MILLIS = 1_000;

    /** The proxy between the server and the store; each subclass starts it before its deployment. */
    static TcpProxy proxy;

    /**
     * The test WAR: the resource, a data source straight to PostgreSQL for its effects, the effects'
     * table, and {@code config} as its microprofile-config.properties.
     *
     * @param dataSources more data sources (name and port), such as the store's through the proxy
     */
    static WebArchive deployment(String name, String config, Map<String, Integer> dataSources) throws SQLException {
        EffectRows.createTable(SettlementsResource.TABLE, "effect_key");
        Map<String, Integer> sources = new TreeMap<>(dataSources);
        sources.put(SettlementsResource.EFFECTS, 5432);
        return Deployments.withPostgres(
                Deployments.war(name)
                        .addClasses(FaultApp.class, SettlementsResource.class)
                        .addAsResource(new StringAsset(config), "META-INF/microprofile-config.properties"),
                sources);
    }

    @ArquillianResource
    URL deployed;

    private final HttpClient client = Deployments.httpClient();

    private HttpRequest settle(String id, long pauseMillis) {
        URI uri = Deployments.loopback(deployed).resolve("api/settlements/" + id + "?pause=" + pauseMillis);
        return HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(180))
                .header("Idempotency-Key", id)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static int rows(String id) throws SQLException {
        return EffectRows.count(SettlementsResource.TABLE, "effect_key", id);
    }

    /** A fault the test injects while every request of a batch is past its business commit. */
    @FunctionalInterface
    interface Fault {
        void inject() throws Exception;
    }

    @Test
    void aCutAfterTheBusinessCommitRunsNoKeyTwiceAndEveryRetryReplays() throws Exception {
        assertEveryRetryReplays(settleThrough("cut", BATCHES, () -> {
            proxy.cut();
            Thread.sleep(CUT.toMillis());
            proxy.heal();
        }));
    }

    /**
     * Sends {@code batches} batches of {@value #BATCH} requests; once every request of a batch has
     * written its effect (and so waits in its pause, before its completion), injects the fault, then
     * expects every request to be answered 201.
     *
     * @return each key and the body of its first answer
     */
    Map<String, String> settleThrough(String prefix, int batches, Fault fault) throws Exception {
        Map<String, String> firstBodies = new LinkedHashMap<>();
        for (int batch = 0; batch < batches; batch++) {
            Map<String, CompletableFuture<HttpResponse<String>>> pending = new LinkedHashMap<>();
            for (int i = 0; i < BATCH; i++) {
                String id = prefix + "-" + batch + "-" + i + "-" + UUID.randomUUID();
                pending.put(id, client.sendAsync(settle(id, PAUSE_MILLIS), HttpResponse.BodyHandlers.ofString()));
            }
            // Every effect committed: now every request is between its business commit and its completion.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            List<String> missing = new ArrayList<>(pending.keySet());
            while (!missing.isEmpty()) {
                List<String> still = new ArrayList<>();
                for (String id : missing) {
                    if (rows(id) == 0) {
                        still.add(id);
                    }
                }
                missing = still;
                assertTrue(
                        missing.isEmpty() || System.nanoTime() < deadline,
                        "effects not written within 30 s: " + missing.size() + " of " + BATCH);
                Thread.sleep(20);
            }
            fault.inject();
            for (Map.Entry<String, CompletableFuture<HttpResponse<String>>> e : pending.entrySet()) {
                HttpResponse<String> r = e.getValue().get(180, TimeUnit.SECONDS);
                assertEquals(201, r.statusCode(), "answer to " + e.getKey() + ": " + r.body());
                firstBodies.put(e.getKey(), r.body());
            }
        }
        return firstBodies;
    }

    /** Retries every key once: each must replay its first body and have exactly one effect row. */
    void assertEveryRetryReplays(Map<String, String> firstBodies) throws Exception {
        int replays = 0;
        for (Map.Entry<String, String> e : firstBodies.entrySet()) {
            // The same request (the same query): a replay, which does not run the resource or its pause.
            HttpResponse<String> retry =
                    client.send(settle(e.getKey(), PAUSE_MILLIS), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, retry.statusCode(), "retry of " + e.getKey() + ": " + retry.body());
            assertEquals(
                    "true",
                    retry.headers().firstValue("Idempotent-Replayed").orElse("(none)"),
                    "retry of " + e.getKey() + " is a replay");
            assertEquals(e.getValue(), retry.body(), "the replayed body of " + e.getKey());
            assertEquals(1, rows(e.getKey()), "effect rows of " + e.getKey());
            replays++;
        }
        assertEquals(firstBodies.size(), replays);
    }

    @Test
    void afterACutHealsNewKeysAreServedWithinTenSeconds() throws Exception {
        // Fill the pool: concurrent calls, each holding a store connection for its claim and completion.
        List<CompletableFuture<HttpResponse<String>>> warm = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            warm.add(client.sendAsync(settle("warm-" + UUID.randomUUID(), 300), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> w : warm) {
            assertEquals(201, w.get(60, TimeUnit.SECONDS).statusCode());
        }
        proxy.cut();
        Thread.sleep(3_000);
        proxy.heal();
        long healed = System.nanoTime();
        Map<Integer, Integer> statuses = new TreeMap<>();
        Duration served = null;
        while (served == null && System.nanoTime() - healed < TimeUnit.SECONDS.toNanos(60)) {
            HttpResponse<String> r =
                    client.send(settle("after-" + UUID.randomUUID(), 0), HttpResponse.BodyHandlers.ofString());
            statuses.merge(r.statusCode(), 1, Integer::sum);
            if (r.statusCode() == 201) {
                served = Duration.ofNanos(System.nanoTime() - healed);
            } else {
                Thread.sleep(200);
            }
        }
        assertTrue(
                served != null && served.compareTo(Duration.ofSeconds(10)) <= 0,
                "first new key served " + served + " after the heal; answers meanwhile: " + statuses);
        System.out.println(getClass().getSimpleName() + ": first new key served " + served.toMillis()
                + " ms after the heal;" + " answers until then: " + statuses);
        // And not by one lucky connection: a burst of new keys is served too.
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            burst.add(
                    client.sendAsync(settle("burst-" + UUID.randomUUID(), 100), HttpResponse.BodyHandlers.ofString()));
        }
        Map<Integer, Integer> burstStatuses = new TreeMap<>();
        for (CompletableFuture<HttpResponse<String>> b : burst) {
            burstStatuses.merge(b.get(60, TimeUnit.SECONDS).statusCode(), 1, Integer::sum);
        }
        assertEquals(Map.of(201, 24), burstStatuses, "a burst of new keys after the heal");
    }
}
