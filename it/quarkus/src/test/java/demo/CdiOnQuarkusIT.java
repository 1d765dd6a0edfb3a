package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On Quarkus 3 (ArC, CDI Lite) the app starts and guards its {@code @Idempotent} CDI methods as on a
 * Jakarta EE server: the library's build-compatible extension binds the methods whose {@code @Idempotent}
 * is declared on an interface or a superclass, and an invalid configuration value stops the app at startup
 * with the library's message naming the key. Runs are counted by the app itself ({@link Executions}).
 */
class CdiOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    private static Path jar;
    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        jar = Path.of(System.getProperty("app.jar", "target/quarkus-app/quarkus-run.jar"));
        app = PackagedApp.start(jar, log("cdi"), port(), "executions/orders/probe");
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theAppStarts() {
        assertThat(app.started())
                .as("the app started; its output (%s):%n%s", app.log(), PackagedApp.tail(app.log()))
                .isTrue();
    }

    @Test
    void aMethodDeclaredOnTheBeanRunsOncePerKey() throws Exception {
        assertOncePerKey("payments/charge-cdi?cents=500", "charges", "charge-cdi", "charge-cdi:500");
    }

    @Test
    void aBindingDeclaredOnAnInterfaceRunsOncePerKey() throws Exception {
        assertOncePerKey("refunds/refund-cdi", "refunds", "refund-cdi", "refund-cdi");
    }

    @Test
    void aBindingDeclaredOnAnOverriddenSuperclassMethodRunsOncePerKey() throws Exception {
        assertOncePerKey("fees/fee-cdi", "fees", "fee-cdi", "fee-cdi");
    }

    @Test
    void anInvalidConfigValueStopsTheStartupNamingTheKey() throws Exception {
        try (PackagedApp invalid = PackagedApp.start(
                jar, log("invalid-ttl"), port() + 10, "executions/orders/probe", List.of("-Didempotency.ttl=banana"))) {
            assertThat(invalid.started())
                    .as(
                            "the app with idempotency.ttl=banana started; its output (%s):%n%s",
                            invalid.log(), PackagedApp.tail(invalid.log()))
                    .isFalse();
            assertThat(invalid.output())
                    .as("the output of the app with idempotency.ttl=banana (%s)", invalid.log())
                    .contains("idempotency.ttl")
                    .contains("banana");
        }
    }

    @Test
    void anInvalidHttpConfigValueStopsTheStartupNamingTheKey() throws Exception {
        try (PackagedApp invalid = PackagedApp.start(
                jar,
                log("invalid-http"),
                port() + 20,
                "executions/orders/probe",
                List.of("-Didempotency.http.key-max-length=banana"))) {
            assertThat(invalid.started())
                    .as(
                            "the app with idempotency.http.key-max-length=banana started; its output (%s):%n%s",
                            invalid.log(), PackagedApp.tail(invalid.log()))
                    .isFalse();
            assertThat(invalid.output())
                    .as("the output of the app with idempotency.http.key-max-length=banana (%s)", invalid.log())
                    .contains("idempotency.http.key-max-length")
                    .contains("banana");
        }
    }

    @Test
    void aMessageIsProcessedOnceAndAPoisonMessageStopsAtItsAttemptLimit() throws Exception {
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            answers.add(post("messages/repayment-1").body());
        }
        assertThat(answers).as("three deliveries of one message").containsOnly("processed");
        assertThat(executions("billing", "repayment-1"))
                .as("processings of a message delivered three times (answered %s)", answers)
                .isEqualTo(1);
        List<String> poison = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            poison.add(post("messages/repayment-2?fail=true").body());
        }
        // maxAttempts = 2: two attempts fail, later deliveries return without running the handler.
        assertThat(poison.subList(0, 2))
                .as("deliveries of a failing message: %s", poison)
                .allMatch(a -> a.startsWith("failed"));
        assertThat(executions("billing", "repayment-2"))
                .as("attempts at a message that always fails, delivered four times (answered %s)", poison)
                .isEqualTo(2);
    }

    @Test
    void aClusterLockedJobIsSkippedWhileAnotherCallHoldsTheLock() throws Exception {
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(client.sendAsync(
                    HttpRequest.newBuilder(app.base().resolve("reports/nightly-1?holdMillis=2000"))
                            .timeout(CALL)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        List<String> answers = new ArrayList<>();
        for (var call : calls) {
            HttpResponse<String> r = call.get(CALL.toSeconds() + 5, java.util.concurrent.TimeUnit.SECONDS);
            answers.add(r.statusCode() + " " + r.body());
        }
        assertThat(answers).as("five concurrent calls of the locked job").containsOnly("200 done");
        assertThat(executions("reports", "nightly-1"))
                .as("runs of the job called five times at once (answered %s)", answers)
                .isEqualTo(1);
        // Released when it returned (atLeastFor 0): the next call runs.
        assertThat(post("reports/nightly-1?holdMillis=0").body()).isEqualTo("done");
        assertThat(executions("reports", "nightly-1"))
                .as("runs after a later call")
                .isEqualTo(2);
    }

    private static void assertOncePerKey(String path, String kind, String ref, String expected) throws Exception {
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = post(path);
            answers.add(r.statusCode() + " " + r.body());
            assertThat(r.statusCode()).as("POST %s answered %s", path, answers).isEqualTo(200);
            assertThat(r.body()).as("POST %s answered %s", path, answers).isEqualTo(expected);
        }
        assertThat(executions(kind, ref))
                .as("runs of %s/%s after two calls with one key (answered %s)", kind, ref, answers)
                .isEqualTo(1);
    }

    private static int port() {
        return Integer.getInteger("it.port", 24080) + 20;
    }

    private static Path log(String name) {
        Path log = Path.of(System.getProperty("app.log", "target/it/app.log"));
        return log.resolveSibling(name + ".log");
    }

    private static HttpResponse<String> post(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(app.base().resolve(path))
                        .timeout(CALL)
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int executions(String kind, String ref) throws Exception {
        return app.executions(client, kind, ref, CALL);
    }
}
