package demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With MicroProfile Health in the app ({@code quarkus-smallrye-health}, the redis profile), Quarkus's
 * readiness report carries the library's store check, named {@code idempotency-store}, UP while Redis
 * answers, as on a Jakarta EE server (docs/operations.md).
 */
class HealthOnQuarkusIT {

    private static final Duration CALL = Duration.ofSeconds(10);

    private static PackagedApp app;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        PackagedApp.assumeStore(
                "redis", "the app has no MicroProfile Health (the redis profile adds quarkus-smallrye-health)");
        app = PackagedApp.startFor("health.log", 70);
        client = PackagedApp.client();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theReadinessReportCarriesTheStoreCheckUp() throws Exception {
        assertThat(app.started())
                .as("the app started; its output (%s):%n%s", app.log(), PackagedApp.tail(app.log()))
                .isTrue();
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(app.base().resolve("q/health/ready"))
                        .timeout(CALL)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String body = r.body().replaceAll("\\s+", "");
        assertThat(r.statusCode())
                .as("GET /q/health/ready answered %s", r.body())
                .isEqualTo(200);
        assertThat(body)
                .as("the readiness report")
                .contains("\"name\":\"idempotency-store\",\"status\":\"UP\"")
                .contains("\"store\":\"redis\"");
    }
}
