package dev.idempotency.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ops.it.app.JmxResource;
import dev.idempotency.ops.it.app.OpsApp;
import dev.idempotency.ops.it.app.PaymentsResource;
import dev.idempotency.ops.it.app.PlainResource;
import dev.idempotency.ops.it.app.Users;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The operations scenarios, over real HTTP to 127.0.0.1, against one deployment on the JPA store
 * (PostgreSQL behind a proxy the test cuts): the server's own /metrics and the JMX MBean after a
 * scripted sequence, /health/ready going DOWN and UP with the database, the OpenAPI document, and the
 * inspection resource's security. Each subclass starts one server with the application of {@link
 * #deployment()} at context root {@code ops-it}: {@link OpsIT} on Payara Micro, {@link OpsLibertyIT} on
 * Open Liberty.
 */
abstract class OpsScenarios {

    static final String KEY = "Idempotency-Key";

    /** The application: two guarded operations, an unguarded one, the MBean reader and the users. */
    static WebArchive deployment() {
        File jar = new File(System.getProperty("project.jar", "target/idempotency-ee.jar"));
        return ShrinkWrap.create(WebArchive.class, "ops-it.war")
                .addAsLibrary(ShrinkWrap.createFromZipFile(JavaArchive.class, jar))
                .addClasses(OpsApp.class, PaymentsResource.class, PlainResource.class, JmxResource.class, Users.class)
                .addAsResource(
                        new StringAsset("idempotency.store=jpa\n"
                                + "idempotency.jpa.lock-timeout=PT2S\n"
                                + "idempotency.inspection.http.enabled=true\n"),
                        "META-INF/microprofile-config.properties")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                // isUserInRole sees only declared roles: the application declares the inspection role.
                .setWebXML(
                        new StringAsset(
                                """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                          <security-role><role-name>idempotency-operator</role-name></security-role>
                          <security-role><role-name>user</role-name></security-role>
                        </web-app>
                        """));
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * Waits, at most {@code limit}, until a server process started by a subclass serves the application:
     * fails at once when the process exits or its log shows that the deployment failed.
     */
    static void awaitApplication(
            Process process, String serverName, int port, Path log, String deployFailed, Duration limit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        HttpClient probe = HttpClient.newHttpClient();
        String last = "nothing";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(serverName + " exited; see " + log);
            }
            try {
                HttpResponse<String> r = probe.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ops-it/api/payments/runs"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            }
            if (Files.exists(log) && Files.readString(log).contains(deployFailed)) {
                throw new AssertionError("the application did not deploy on " + serverName + "; see " + log);
            }
            Thread.sleep(500);
        }
        throw new AssertionError(serverName + " did not serve the application within " + limit.toSeconds()
                + " s (last: " + last + "); see " + log);
    }

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** The server's HTTP port on 127.0.0.1. */
    abstract int port();

    /** The proxy between the application's data source and PostgreSQL. */
    abstract PgProxy database();

    /** The server's root on 127.0.0.1. */
    URI server() {
        return URI.create("http://127.0.0.1:" + port() + "/");
    }

    /** Where the server serves the OpenAPI document as JSON. */
    URI openApi() {
        return server().resolve("openapi");
    }

    /** Cuts the application off its database (every connection closed, new ones refused). */
    void cutDatabase() throws IOException {
        database().cut();
    }

    /** Gives the application its database back. */
    void restoreDatabase() throws IOException {
        database().open();
    }

    private URI app(String path) {
        return server().resolve("ops-it/" + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return client.send(b.timeout(Duration.ofSeconds(90)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(app(path))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "text/plain");
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    private HttpResponse<String> get(URI uri, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    // Metrics

    @Test
    void theServersMetricsAndTheMBeanCountAScriptedSequenceExactly() throws Exception {
        String op = PaymentsResource.PAY;
        String before = get(server().resolve("metrics")).body();
        String a = UUID.randomUUID().toString();
        String b = UUID.randomUUID().toString();
        int paysBefore = pays();

        assertEquals(201, post("api/payments", "first", KEY, a).statusCode());
        CompletableFuture<HttpResponse<String>> held =
                CompletableFuture.supplyAsync(() -> post("api/payments", "hold", KEY, b));
        waitFor("the held call to start", this::pays, n -> n >= paysBefore + 2, Duration.ofSeconds(60));
        HttpResponse<String> conflict = post("api/payments", "hold", KEY, b);
        assertEquals(409, conflict.statusCode(), conflict::body);
        assertTrue(conflict.headers().firstValue("Retry-After").isPresent());
        assertEquals("let", post("api/payments/let", "").body());
        assertEquals(201, held.get(90, TimeUnit.SECONDS).statusCode());
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> replay = post("api/payments", "first", KEY, a);
            assertEquals(201, replay.statusCode());
            assertEquals(
                    "true", replay.headers().firstValue("Idempotent-Replayed").orElse(""));
        }
        assertEquals(422, post("api/payments", "other body", KEY, a).statusCode());

        String after = get(server().resolve("metrics")).body();
        assertEquals(2, delta(before, after, op, "executed"), () -> metricLines(after));
        assertEquals(3, delta(before, after, op, "replayed"), () -> metricLines(after));
        assertEquals(1, delta(before, after, op, "in_progress"), () -> metricLines(after));
        assertEquals(1, delta(before, after, op, "mismatch"), () -> metricLines(after));
        assertEquals(0, delta(before, after, op, "key_missing"), () -> metricLines(after));
        assertTrue(
                after.contains("idempotency_store_duration_seconds_count{")
                        || after.contains("idempotency_store_duration_seconds{"),
                () -> metricLines(after));

        // The same counts on the MBean, read inside the server.
        assertEquals(
                String.valueOf(count(after, op, "executed")),
                get(app("api/jmx/" + op + "/Executions")).body());
        assertEquals(
                String.valueOf(count(after, op, "replayed")),
                get(app("api/jmx/" + op + "/Replays")).body());
    }

    private int pays() {
        return runs(get(app("api/payments/runs")).body(), 0);
    }

    private static int runs(String body, int index) {
        if (body.isBlank()) {
            return 0;
        }
        return Integer.parseInt(body.trim().split(" ")[index]);
    }

    private static final Pattern LINE =
            Pattern.compile("^idempotency_calls_total\\{([^}]*)}\\s+([0-9.eE+-]+)", Pattern.MULTILINE);

    /** The value of idempotency.calls for an operation and outcome in a Prometheus exposition. */
    static long count(String exposition, String operation, String outcome) {
        Matcher m = LINE.matcher(exposition);
        long total = 0;
        while (m.find()) {
            String tags = m.group(1);
            if (tags.contains("operation=\"" + operation + "\"") && tags.contains("outcome=\"" + outcome + "\"")) {
                total += (long) Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    private static long delta(String before, String after, String operation, String outcome) {
        return count(after, operation, outcome) - count(before, operation, outcome);
    }

    private static String metricLines(String exposition) {
        StringBuilder sb = new StringBuilder("idempotency metrics seen:\n");
        for (String line : exposition.split("\n")) {
            if (line.startsWith("idempotency")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    // Health

    @Test
    void readinessGoesDownWithTheDatabaseAndUpWhenItIsBack() throws Exception {
        URI ready = server().resolve("health/ready");
        waitFor("readiness UP", () -> storeCheck(get(ready)), "UP"::equals, Duration.ofSeconds(60));
        cutDatabase();
        try {
            waitFor(
                    "readiness DOWN after the database went away",
                    () -> storeCheck(get(ready)),
                    "DOWN"::equals,
                    Duration.ofSeconds(90));
            HttpResponse<String> r = get(ready);
            assertEquals(503, r.statusCode(), r::body);
            HttpResponse<String> refused = post(
                    "api/payments/refund", "while down", KEY, UUID.randomUUID().toString());
            assertEquals(503, refused.statusCode(), refused::body);
            assertTrue(refused.body().contains("store-unavailable"), refused::body);
            assertFalse(refused.body().contains("Exception"), "no driver text reaches the client: " + refused.body());
        } finally {
            restoreDatabase();
        }
        waitFor(
                "readiness UP after the database came back",
                () -> storeCheck(get(ready)),
                "UP"::equals,
                Duration.ofSeconds(120));
        assertEquals(200, get(ready).statusCode());
        assertEquals(
                201,
                post("api/payments/refund", "after", KEY, UUID.randomUUID().toString())
                        .statusCode());
    }

    /** The status of the idempotency-store check in a health response, or what came back instead. */
    private static String storeCheck(HttpResponse<String> r) {
        try {
            JsonObject json = Json.createReader(new StringReader(r.body())).readObject();
            for (JsonValue v : json.getJsonArray("checks")) {
                JsonObject check = v.asJsonObject();
                if ("idempotency-store".equals(check.getString("name"))) {
                    return check.getString("status");
                }
            }
            return "no idempotency-store check in " + r.body();
        } catch (RuntimeException e) {
            return r.statusCode() + " " + r.body();
        }
    }

    // OpenAPI

    @Test
    void theOpenApiDocumentShowsTheContractOnGuardedOperationsOnly() {
        HttpResponse<String> r = get(openApi(), "Accept", "application/json");
        assertEquals(200, r.statusCode(), r::body);
        JsonObject paths =
                Json.createReader(new StringReader(r.body())).readObject().getJsonObject("paths");
        JsonObject pay = operation(paths, "/payments", "post");
        JsonObject plain = operation(paths, "/plain", "post");
        assertNotNull(pay, () -> "no POST /payments in " + paths.keySet());
        assertNotNull(plain, () -> "no POST /plain in " + paths.keySet());

        JsonObject header = keyParameter(pay);
        assertNotNull(header, () -> "no Idempotency-Key parameter on POST /payments: " + pay + " in " + r.body());
        assertEquals("header", header.getString("in"));
        assertTrue(header.getBoolean("required"));
        JsonObject responses = pay.getJsonObject("responses");
        for (String status : new String[] {"400", "409", "422", "503"}) {
            JsonObject resp = responses.getJsonObject(status);
            assertNotNull(resp, () -> "no " + status + " on POST /payments: " + responses);
            assertTrue(resp.getJsonObject("content").containsKey("application/problem+json"), resp::toString);
        }
        assertTrue(responses.getJsonObject("409").getJsonObject("headers").containsKey("Retry-After"));
        assertTrue(responses.getJsonObject("503").getJsonObject("headers").containsKey("Retry-After"));
        assertTrue(pay.getString("description", "").contains("Idempotent-Replayed"), pay::toString);

        assertTrue(
                paths.keySet().stream().noneMatch(p -> p.endsWith("/idempotency/tokens")),
                () -> "the one-time token endpoint is off (the default) but documented: " + paths.keySet());

        assertNull(keyParameter(plain), () -> "POST /plain is not guarded: " + plain);
        JsonObject plainResponses = plain.getJsonObject("responses");
        assertFalse(plainResponses != null && plainResponses.containsKey("409"), () -> String.valueOf(plainResponses));
    }

    /** The operation of a path that ends with {@code suffix} (documented paths include the application path). */
    private static JsonObject operation(JsonObject paths, String suffix, String method) {
        for (String p : paths.keySet()) {
            if (p.endsWith(suffix) && paths.getJsonObject(p).containsKey(method)) {
                return paths.getJsonObject(p).getJsonObject(method);
            }
        }
        return null;
    }

    private static JsonObject keyParameter(JsonObject operation) {
        JsonArray params = operation.getJsonArray("parameters");
        if (params == null) {
            return null;
        }
        for (JsonValue v : params) {
            if (KEY.equals(v.asJsonObject().getString("name", ""))) {
                return v.asJsonObject();
            }
        }
        return null;
    }

    // Inspection

    @Test
    void theInspectionResourceNeedsTheRoleAndNeverShowsTheKeyOrTheBody() {
        String key = "inspect-" + UUID.randomUUID();
        assertEquals(201, post("api/payments/refund", "secret body", KEY, key).statusCode());
        String request = Json.createObjectBuilder()
                .add("operation", PaymentsResource.REFUND)
                .add("scope", "anonymous")
                .add("key", key)
                .build()
                .toString();

        HttpResponse<String> anonymous = inspect("find", request, null);
        assertEquals(401, anonymous.statusCode(), anonymous::body);
        HttpResponse<String> user = inspect("find", request, "user:user-secret");
        assertEquals(403, user.statusCode(), user::body);

        HttpResponse<String> found = inspect("find", request, "operator:operator-secret");
        assertEquals(200, found.statusCode(), found::body);
        JsonObject view = Json.createReader(new StringReader(found.body())).readObject();
        assertEquals("COMPLETED", view.getString("status"));
        assertEquals(PaymentsResource.REFUND, view.getString("operation"));
        assertTrue(view.getInt("storedBytes") > 0);
        assertFalse(view.isNull("createdAt"));
        assertFalse(found.body().contains(key), "never the raw key");
        assertFalse(found.body().contains("secret body") || found.body().contains("refunded"), "never the body");
        // Open Liberty adds no-cache="set-cookie" when its security sets a cookie; no-store is what keeps it out of
        // caches.
        String cacheControl = String.join(",", found.headers().allValues("Cache-Control"));
        assertTrue(
                Arrays.stream(cacheControl.split(",")).map(String::strip).anyMatch("no-store"::equals),
                () -> "Cache-Control: " + cacheControl);

        HttpResponse<String> deleted = inspect("delete", request, "operator:operator-secret");
        assertEquals(200, deleted.statusCode(), deleted::body);
        assertTrue(deleted.body().contains("\"DONE\""), deleted::body);
        assertEquals(404, inspect("find", request, "operator:operator-secret").statusCode());
        int refunds = runs(get(app("api/payments/runs")).body(), 1);
        assertEquals(201, post("api/payments/refund", "secret body", KEY, key).statusCode());
        assertEquals(refunds + 1, runs(get(app("api/payments/runs")).body(), 1), "the deleted key ran again");
    }

    private HttpResponse<String> inspect(String action, String json, String credentials) {
        HttpRequest.Builder b = HttpRequest.newBuilder(app("api/idempotency/records/" + action))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .header("Content-Type", "application/json");
        if (credentials != null) {
            b.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return send(b);
    }

    /** Polls until {@code done} accepts what {@code probe} returns, for at most {@code limit}. */
    private static <T> void waitFor(
            String what, java.util.function.Supplier<T> probe, Predicate<T> done, Duration limit)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = probe.get();
            if (done.test(last)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("waited " + limit + " for " + what + "; last seen: " + last);
    }
}
