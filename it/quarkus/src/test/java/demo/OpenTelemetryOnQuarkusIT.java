package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With OpenTelemetry metrics in the app ({@code quarkus-opentelemetry}, {@code quarkus.otel.metrics.enabled},
 * the redis profile), Quarkus's SDK exports the library's instruments: the guarded calls of {@code POST
 * /orders} by outcome, counted exactly, and the Redis store's latency histogram. The app exports to the SDK's
 * in-memory exporter and serves what it exported ({@code GET /otel/points/<name>}, src/otel): no collector.
 * This app's start serves only this test, so every count is of the calls made here.
 */
class OpenTelemetryOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);
    private static final String OPERATION = "POST /orders";
    private static final List<String> OUTCOMES =
            List.of("executed", "replayed", "in_progress", "mismatch", "key_missing", "store_unavailable");

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        PackagedApp.assumeStore("redis", "the app has no OpenTelemetry (the redis profile adds quarkus-opentelemetry)");
        app = PackagedApp.startFor("otel.log", 90);
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theSdkExportsGuardedCallsByOutcomeAndTheStoreLatency() throws Exception {
        assertThat(app.started())
                .as("the app started; its output (%s):%n%s", app.log(), PackagedApp.tail(app.log()))
                .isTrue();
        String key = "otel-" + System.nanoTime();
        assertThat(post(order("otel"), key).statusCode()).as("a new key").isEqualTo(201);
        HttpResponse<String> replay = post(order("otel"), key);
        assertThat(replay.headers().firstValue("Idempotent-Replayed"))
                .as("the repeat is a replay (it answered %s %s)", replay.statusCode(), replay.body())
                .hasValue("true");
        HttpResponse<String> mismatch = post(order("otel-other"), key);
        assertThat(mismatch.statusCode())
                .as("the same key with another payload answered %s", mismatch.body())
                .isEqualTo(422);

        Map<String, String> expected = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            expected.put(outcome, "0");
        }
        expected.put("executed", "1");
        expected.put("replayed", "1");
        expected.put("mismatch", "1");
        // Each read collects and exports first; the loop only bounds a slow export, 10 s at most.
        long deadline = System.nanoTime() + CALL.toNanos();
        String calls = points("idempotency.calls");
        while (!byOutcome(calls).equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            calls = points("idempotency.calls");
        }
        assertThat(byOutcome(calls))
                .as("idempotency.calls of %s by outcome, as exported (GET /otel/points):%n%s", OPERATION, calls)
                .containsExactlyEntriesOf(expected);
        // One claim per call (the new key, the replay, the mismatch); one completion, of the new key.
        String durations = points("idempotency.store.duration");
        assertThat(durations)
                .as("the store latency histogram's counts, as exported")
                .contains("primitive=claim 3\n")
                .contains("primitive=complete 1\n");
    }

    /** The exported points of {@code name}: lines of {@code attributes value}. */
    private static String points(String name) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(app.base().resolve("otel/points/" + name))
                        .timeout(CALL)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode())
                .as("GET /otel/points/%s answered %s", name, r.body())
                .isEqualTo(200);
        return r.body();
    }

    /** The values of {@link #OPERATION}'s points by outcome, in the documented order; null where none. */
    private static Map<String, String> byOutcome(String points) {
        Map<String, String> found = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            String prefix = "operation=" + OPERATION + ",outcome=" + outcome + " ";
            String value = null;
            for (String line : points.split("\n")) {
                if (line.startsWith(prefix)) {
                    value = line.substring(prefix.length()).trim();
                }
            }
            found.put(outcome, value);
        }
        return found;
    }

    private static String order(String ref) {
        return "{\"ref\":\"" + ref + "\",\"cents\":1250,\"holdMillis\":0}";
    }

    private static HttpResponse<String> post(String json, String key) throws Exception {
        return client.send(app.post("orders", json, key, CALL), HttpResponse.BodyHandlers.ofString());
    }
}
