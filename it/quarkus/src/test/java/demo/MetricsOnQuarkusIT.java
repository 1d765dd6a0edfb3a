package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With Micrometer in the app ({@code quarkus-micrometer-registry-prometheus}, the redis profile), Quarkus's
 * Prometheus scrape {@code /q/metrics} carries the library's meters: the guarded calls of {@code POST
 * /orders} by outcome, counted exactly, and the Redis store's call timer (docs/operations.md, "Metrics").
 * This app's start serves only this test, so every count in the scrape is of the calls made here.
 */
class MetricsOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);
    private static final String OPERATION = "POST /orders";
    private static final List<String> OUTCOMES =
            List.of("executed", "replayed", "in_progress", "mismatch", "key_missing", "store_unavailable");

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        PackagedApp.assumeStore(
                "redis", "the app has no Micrometer (the redis profile adds quarkus-micrometer-registry-prometheus)");
        app = PackagedApp.startFor("metrics.log", 80);
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theScrapeCountsGuardedCallsByOutcomeAndTimesTheStore() throws Exception {
        assertThat(app.started())
                .as("the app started; its output (%s):%n%s", app.log(), PackagedApp.tail(app.log()))
                .isTrue();
        String key = "metrics-" + System.nanoTime();
        assertThat(post(order("metrics"), key).statusCode()).as("a new key").isEqualTo(201);
        HttpResponse<String> replay = post(order("metrics"), key);
        assertThat(replay.statusCode())
                .as("the repeat answered %s", replay.body())
                .isEqualTo(201);
        assertThat(replay.headers().firstValue("Idempotent-Replayed"))
                .as("the repeat is a replay")
                .hasValue("true");
        HttpResponse<String> mismatch = post(order("metrics-other"), key);
        assertThat(mismatch.statusCode())
                .as("the same key with another payload answered %s", mismatch.body())
                .isEqualTo(422);

        String scrape = scrape();
        Map<String, Double> expected = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            expected.put(outcome, 0.0);
        }
        expected.put("executed", 1.0);
        expected.put("replayed", 1.0);
        expected.put("mismatch", 1.0);
        assertThat(calls(scrape))
                .as("idempotency_calls_total of %s by outcome in /q/metrics:%n%s", OPERATION, idempotencyLines(scrape))
                .containsExactlyEntriesOf(expected);
        // One claim per call (the new key, the replay, the mismatch); one completion, of the new key.
        assertThat(value(scrape, "idempotency_store_duration_seconds_count", "primitive=\"claim\""))
                .as("the claims timed, in /q/metrics:%n%s", idempotencyLines(scrape))
                .isEqualTo(3.0);
        assertThat(value(scrape, "idempotency_store_duration_seconds_count", "primitive=\"complete\""))
                .as("the completions timed, in /q/metrics:%n%s", idempotencyLines(scrape))
                .isEqualTo(1.0);
        assertThat(value(scrape, "idempotency_store_duration_seconds_sum", "primitive=\"claim\""))
                .as("the time of the claims")
                .isPositive();
    }

    private static String scrape() throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(app.base().resolve("q/metrics"))
                        .timeout(CALL)
                        .header("Accept", "text/plain")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET /q/metrics answered %s", r.body()).isEqualTo(200);
        return r.body();
    }

    /** The calls counter of {@link #OPERATION} by outcome, null for an outcome the scrape lacks. */
    private static Map<String, Double> calls(String scrape) {
        Map<String, Double> byOutcome = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            byOutcome.put(
                    outcome,
                    value(
                            scrape,
                            "idempotency_calls_total",
                            "operation=\"" + OPERATION + "\"",
                            "outcome=\"" + outcome + "\""));
        }
        return byOutcome;
    }

    /** The value of the sample {@code name} whose labels contain every one of {@code labels}, or null. */
    private static Double value(String scrape, String name, String... labels) {
        Pattern sample = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\}\\s+(\\S+)", Pattern.MULTILINE);
        Matcher m = sample.matcher(scrape);
        Double found = null;
        while (m.find()) {
            String set = m.group(1);
            boolean all = true;
            for (String label : labels) {
                all &= set.contains(label);
            }
            if (all) {
                if (found != null) {
                    throw new AssertionError("two samples of " + name + " with " + List.of(labels) + " in:\n"
                            + idempotencyLines(scrape));
                }
                found = Double.parseDouble(m.group(2));
            }
        }
        return found;
    }

    private static String idempotencyLines(String scrape) {
        StringBuilder b = new StringBuilder();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("idempotency_")) {
                b.append(line).append('\n');
            }
        }
        return b.length() == 0 ? "(no idempotency_* sample)" : b.toString();
    }

    private static String order(String ref) {
        return "{\"ref\":\"" + ref + "\",\"cents\":1250,\"holdMillis\":0}";
    }

    private static HttpResponse<String> post(String json, String key) throws Exception {
        return client.send(app.post("orders", json, key, CALL), HttpResponse.BodyHandlers.ofString());
    }
}
