package demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
 * On Quarkus 3, an app with {@code @Idempotent} methods never runs one unguarded. Either the app refuses to
 * start with the library's own explanation (the tests needing a running app are then skipped), or it starts
 * and every guarded method runs at most once per key, and never without a required key (the startup test is
 * then skipped). Runs are counted by the app itself ({@link Executions}); an unguarded twin of the resource
 * method shows that the counting and the requests work. Any other outcome fails: a startup that fails for
 * another reason (a missing class), or a guarded method that runs twice or without its key.
 */
class NeverUnguardedIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        Path jar = Path.of(System.getProperty("app.jar", "target/quarkus-app/quarkus-run.jar"));
        Path log = Path.of(System.getProperty("app.log", "target/it/app.log"));
        int firstPort = Integer.getInteger("it.port", 24080);
        app = PackagedApp.start(jar, log, firstPort, "executions/orders/probe");
        client = PackagedApp.client();
        System.out.println(
                app.started()
                        ? "the app is up at " + app.base() + " (output: " + log + ")"
                        : "the app exited with " + app.exitCode() + " (output: " + log + ")");
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void anAppThatDoesNotStartSaysWhyInTheLibrarysWords() {
        assumeFalse(app.started(), "the app started: the other tests check that it guards");
        String output = app.output();
        assertThat(app.exitCode()).as("exit code of the app that did not start").isNotZero();
        assertThat(output)
                .as(
                        "a startup failure on a missing class is not the library refusing to run unguarded;"
                                + " the app's output (%s):%n%s",
                        app.log(), PackagedApp.tail(app.log()))
                .doesNotContain("ClassNotFoundException")
                .doesNotContain("NoClassDefFoundError");
        assertThat(output)
                .as(
                        "the startup failure explains itself in the library's words, naming @Idempotent;"
                                + " the app's output (%s):%n%s",
                        app.log(), PackagedApp.tail(app.log()))
                .contains("@Idempotent");
    }

    @Test
    void theUnguardedTwinRunsOnEveryRequest() throws Exception {
        assumeStarted();
        String body = order("twin", 0);
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = post("orders/unguarded", body, "key-twin");
            assertThat(r.statusCode())
                    .as("POST /orders/unguarded answered %s", r.body())
                    .isEqualTo(201);
        }
        assertThat(executions("unguarded", "twin"))
                .as("runs of the unguarded twin after two requests")
                .isEqualTo(2);
    }

    @Test
    void aRepeatedKeyRunsTheResourceMethodAtMostOnce() throws Exception {
        assumeStarted();
        String body = order("repeat", 0);
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            answers.add(reached(post("orders", body, "key-repeat")));
        }
        assertThat(executions("orders", "repeat"))
                .as("runs of POST /orders after the same Idempotency-Key twice (answered %s)", answers)
                .isLessThanOrEqualTo(1);
    }

    @Test
    void aMissingRequiredKeyDoesNotRunTheResourceMethod() throws Exception {
        assumeStarted();
        int answer = reached(post("orders", order("keyless", 0), null));
        assertThat(executions("orders", "keyless"))
                .as(
                        "runs of POST /orders (@Idempotent(required = true)) without an Idempotency-Key (answered %s)",
                        answer)
                .isZero();
    }

    @Test
    void concurrentRepeatsRunTheResourceMethodAtMostOnce() throws Exception {
        assumeStarted();
        String body = order("concurrent", 300);
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(
                    client.sendAsync(request("orders", body, "key-concurrent"), HttpResponse.BodyHandlers.ofString()));
        }
        List<Integer> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            answers.add(reached(call.get(CALL.toSeconds() + 5, TimeUnit.SECONDS)));
        }
        assertThat(executions("orders", "concurrent"))
                .as(
                        "runs of POST /orders after five concurrent requests with one Idempotency-Key (answered %s)",
                        answers)
                .isLessThanOrEqualTo(1);
    }

    @Test
    void theCdiMethodRunsAtMostOncePerKey() throws Exception {
        assumeStarted();
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            answers.add(post("payments/charge-1?cents=500", "", null).statusCode());
        }
        assertThat(executions("charges", "charge-1"))
                .as("runs of Payments.charge after two calls with one order id (answered %s)", answers)
                .isLessThanOrEqualTo(1);
    }

    @Test
    void aBindingDeclaredOnAnInterfaceRunsAtMostOncePerKey() throws Exception {
        assumeStarted();
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            answers.add(post("refunds/refund-1", "", null).statusCode());
        }
        assertThat(executions("refunds", "refund-1"))
                .as(
                        "runs of CardRefunds.refund (@Idempotent on the Refunds interface) after two calls with one"
                                + " order id (answered %s)",
                        answers)
                .isLessThanOrEqualTo(1);
    }

    private static void assumeStarted() {
        assumeTrue(app.started(), "the app did not start: anAppThatDoesNotStartSaysWhyInTheLibrarysWords checks why");
    }

    /** A guarded call may be refused in any way, but it must reach the method's route: its status. */
    private static int reached(HttpResponse<String> r) {
        assertThat(r.statusCode())
                .as("POST %s answered %s: the request did not reach the resource method's route", r.uri(), r.body())
                .isNotIn(404, 405, 415);
        return r.statusCode();
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
