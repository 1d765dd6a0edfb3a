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
