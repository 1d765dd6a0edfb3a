package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On Quarkus REST the library's HTTP guard and exception mapper are registered from the README's dependency
 * alone (the app registers no provider): a repeat is replayed with {@code Idempotent-Replayed}, a repeat
 * while the first runs answers 409, the same key with another payload 422, a missing required key 400, and
 * concurrent repeats run the method once; a CDI method's mismatch and in-progress repeat come back as 422
 * and 409 through the mapper. Runs are counted by the app itself ({@link Executions}).
 */
class HttpOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        app = PackagedApp.startFor("http.log", 40);
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theRedisStoreServesWhenSelected() {
        PackagedApp.assumeStore("redis", "the app runs on the memory store (the redis profile selects Redis)");
        assertThat(app.output())
                .as("the app's output (%s) says the Redis store started", app.log())
                .contains("idempotency store on Redis");
    }

    @Test
    void theJpaStoreServesWhenSelected() {
        PackagedApp.assumeStore("jpa", "the app runs on the memory store (the jpa profile selects JPA)");
        assertThat(app.output())
                .as("the app's output (%s) says the JPA store started on the default data source", app.log())
                .contains("JPA idempotency store on java:comp/DefaultDataSource (postgresql)");
    }

    @Test
    void theInfinispanStoreServesWhenSelected() {
        PackagedApp.assumeStore(
                "infinispan", "the app runs on the memory store (the infinispan profile selects Infinispan)");
        assertThat(app.output())
                .as("the app's output (%s) says the Infinispan store started on a local cache", app.log())
                .contains("idempotency store: Infinispan local cache 'idempotency'")
                // Infinispan's own metrics, off in the store's cache manager: no WARN for a missing Micrometer.
                .doesNotContain("ISPN000714");
    }

    @Test
    void aRepeatIsReplayedWithoutRunningAgain() throws Exception {
        String body = order("replay", 0);
        HttpResponse<String> first = post("orders", body, "key-replay");
        HttpResponse<String> second = post("orders", body, "key-replay");
        assertThat(first.statusCode())
                .as("first POST /orders answered %s", first.body())
                .isEqualTo(201);
        assertThat(first.headers().firstValue("Idempotent-Replayed"))
                .as("the first response's Idempotent-Replayed")
                .isEmpty();
        assertThat(second.statusCode()).as("repeat answered %s", second.body()).isEqualTo(201);
        assertThat(second.body()).as("the repeat's body").isEqualTo(first.body());
        assertThat(second.headers().firstValue("Idempotent-Replayed"))
                .as(
                        "the repeat's Idempotent-Replayed (headers %s)",
                        second.headers().map())
                .hasValue("true");
        assertThat(executions("orders", "replay")).as("runs of POST /orders").isEqualTo(1);
    }

    @Test
    void aRepeatWhileTheFirstRunsAnswers409() throws Exception {
        CompletableFuture<HttpResponse<String>> first = client.sendAsync(
                request("orders", order("busy", 1500), "key-busy"), HttpResponse.BodyHandlers.ofString());
        awaitRuns("orders", "busy");
        HttpResponse<String> repeat = post("orders", order("busy", 1500), "key-busy");
        assertThat(repeat.statusCode())
                .as("repeat while the first runs answered %s", repeat.body())
                .isEqualTo(409);
        assertThat(first.get(CALL.toSeconds(), TimeUnit.SECONDS).statusCode())
                .as("the first request")
                .isEqualTo(201);
        assertThat(executions("orders", "busy")).as("runs of POST /orders").isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherPayloadAnswers422() throws Exception {
        assertThat(post("orders", order("mismatch", 0), "key-mismatch").statusCode())
                .isEqualTo(201);
        HttpResponse<String> other = post("orders", order("mismatch-other", 0), "key-mismatch");
        assertThat(other.statusCode())
                .as("the other payload answered %s", other.body())
                .isEqualTo(422);
        assertThat(executions("orders", "mismatch-other"))
                .as("runs with the other payload")
                .isZero();
    }

    @Test
    void aMissingRequiredKeyAnswers400WithoutRunning() throws Exception {
        HttpResponse<String> r = post("orders", order("keyless-http", 0), null);
        assertThat(r.statusCode())
                .as("POST /orders without a key answered %s", r.body())
                .isEqualTo(400);
        assertThat(executions("orders", "keyless-http"))
                .as("runs without a key")
                .isZero();
    }

    @Test
    void concurrentRepeatsRunTheResourceMethodOnce() throws Exception {
        String body = order("concurrent-http", 300);
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(client.sendAsync(
                    request("orders", body, "key-concurrent-http"), HttpResponse.BodyHandlers.ofString()));
        }
        List<Integer> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            answers.add(call.get(CALL.toSeconds() + 5, TimeUnit.SECONDS).statusCode());
        }
        assertThat(answers)
                .as("answers to five concurrent requests")
                .containsOnly(201, 409)
                .contains(201);
        assertThat(executions("orders", "concurrent-http"))
                .as("runs of POST /orders after five concurrent requests with one key (answered %s)", answers)
                .isEqualTo(1);
    }

    @Test
    void aCdiMethodsMismatchAnswers422() throws Exception {
        assertThat(post("payments/charge-mismatch?cents=500", "", null).statusCode())
                .isEqualTo(200);
        HttpResponse<String> other = post("payments/charge-mismatch?cents=600", "", null);
        assertThat(other.statusCode())
                .as("Payments.charge with the same order id and other cents answered %s", other.body())
                .isEqualTo(422);
        assertThat(executions("charges", "charge-mismatch"))
                .as("runs of Payments.charge")
                .isEqualTo(1);
    }

    @Test
    void aCdiMethodsRepeatWhileItRunsAnswers409() throws Exception {
        CompletableFuture<HttpResponse<String>> first = client.sendAsync(
                request("settlements/settle-busy?holdMillis=1500", "", null), HttpResponse.BodyHandlers.ofString());
        awaitRuns("settlements", "settle-busy");
        HttpResponse<String> repeat = post("settlements/settle-busy?holdMillis=1500", "", null);
        assertThat(repeat.statusCode())
                .as("Payments.settle repeated while it runs answered %s", repeat.body())
                .isEqualTo(409);
        assertThat(first.get(CALL.toSeconds(), TimeUnit.SECONDS).statusCode())
                .as("the first call")
                .isEqualTo(200);
        assertThat(executions("settlements", "settle-busy"))
                .as("runs of Payments.settle")
                .isEqualTo(1);
    }

    /** Waits, bounded, until the body of {@code kind}/{@code ref} has started. */
    private static void awaitRuns(String kind, String ref) throws Exception {
        long deadline = System.nanoTime() + CALL.toNanos();
        int seen = 0;
        while (System.nanoTime() < deadline) {
            seen = executions(kind, ref);
            if (seen > 0) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(kind + "/" + ref + " did not start within " + CALL + " (runs seen: " + seen + ")");
    }

    private static String order(String ref, long holdMillis) {
        return "{\"ref\":\"" + ref + "\",\"cents\":1250,\"holdMillis\":" + holdMillis + "}";
    }

    private static HttpRequest request(String path, String json, String key) {
        return app.post(path, json, key, CALL);
    }

    private static HttpResponse<String> post(String path, String json, String key) throws Exception {
        return client.send(request(path, json, key), HttpResponse.BodyHandlers.ofString());
    }

    private static int executions(String kind, String ref) throws Exception {
        return app.executions(client, kind, ref, CALL);
    }
}
