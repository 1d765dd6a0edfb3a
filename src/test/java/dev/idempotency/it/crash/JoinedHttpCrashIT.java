package dev.idempotency.it.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.TestServices;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.EffectRows;
import dev.idempotency.it.PayaraMicroProcess;
import dev.idempotency.it.crash.app.Crash;
import dev.idempotency.it.crash.app.CrashOrdersResource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The joined mode on a JAX-RS resource through a real crash: Payara Micro processes of the test's own,
 * killed with {@code kill -9} (SIGKILL) at two points of one request, the business rows and records
 * counted in PostgreSQL.
 *
 * <ol>
 *   <li>Killed after the business INSERT and before the commit: neither the row nor the record
 *       remains, and the retry on a new process runs the order once.
 *   <li>Killed after the commit and before the response's first byte: the row and the record remain,
 *       and the retry on a new process replays the response without a second row.
 * </ol>
 *
 * <p>Not through Arquillian, which cannot kill its server; so on Payara Micro only (the other
 * profiles exclude it, see the pom).
 */
class JoinedHttpCrashIT {

    private static final int PORT = TestServices.port(18090);
    private static final Path DIR = Path.of("target", "crash-it");
    private static final Path MARKERS = DIR.resolve("markers").toAbsolutePath();
    private static final Duration BOOT = Duration.ofSeconds(240);
    private static final Duration MARKER = Duration.ofSeconds(60);

    private final HttpClient client = Deployments.httpClient();
    private Path war;
    private PayaraMicroProcess server;
    private int boots;

    @BeforeEach
    void prepare() throws Exception {
        deleteTree(DIR);
        Files.createDirectories(MARKERS);
        war = DIR.resolve("crash-it.war");
        Deployments.withPostgres(
                        Deployments.war("crash-it.war")
                                .addPackage(Crash.class.getPackage())
                                .addAsResource(
                                        new StringAsset("idempotency.store=jpa\n"
                                                + "Idempotent/transaction=joined\n"
                                                + "idempotency.jpa.datasource=" + CrashOrdersResource.DATASOURCE
                                                + "\n"),
                                        "META-INF/microprofile-config.properties"),
                        CrashOrdersResource.DATASOURCE)
                .as(ZipExporter.class)
                .exportTo(war.toFile(), true);
        EffectRows.createTable(CrashOrdersResource.TABLE, "order_id");
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aKillBeforeTheCommitLeavesNothingAndOneAfterItLeavesRowAndRecord() throws Exception {
        // 1. Killed between the business INSERT and the commit.
        String before = "crash-before-" + UUID.randomUUID();
        String beforeKey = UUID.randomUUID().toString();
        start();
        CompletableFuture<HttpResponse<String>> lost = postAsync(before, beforeKey, Crash.BEFORE_COMMIT);
        awaitMarker(before, Crash.BEFORE_COMMIT);
        kill();
        assertNoSuccess(lost);
        assertEquals(0, rows(before), "the uncommitted business row is gone with the process");
        assertEquals(0, records(beforeKey), "the uncommitted claim is gone with it");

        start();
        HttpResponse<String> retry = post(before, beforeKey);
        assertEquals(201, retry.statusCode(), retry::body);
        assertEquals("placed " + before, retry.body());
        assertFalse(replayed(retry), "nothing was done before the crash: the retry runs");
        assertEquals(1, rows(before), "one business row after the retry");
        assertEquals(1, records(beforeKey));

        // 2. Killed after the commit, before the response was sent.
        String after = "crash-after-" + UUID.randomUUID();
        String afterKey = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> unanswered = postAsync(after, afterKey, Crash.AFTER_COMMIT);
        awaitMarker(after, Crash.AFTER_COMMIT);
        kill();
        assertNoSuccess(unanswered);
        assertEquals(1, rows(after), "the business row committed before the crash");
        assertEquals(1, records(afterKey), "the record committed with it");

        start();
        HttpResponse<String> replay = post(after, afterKey);
        assertEquals(201, replay.statusCode(), replay::body);
        assertEquals("placed " + after, replay.body());
        assertTrue(replayed(replay), "the committed order is replayed, not run again");
        assertEquals(1, rows(after), "no second business row");
    }

    private void start() throws Exception {
        boots++;
        server =
                PayaraMicroProcess.start(war, DIR, Integer.toString(boots), PORT, "-D" + Crash.MARKERS + "=" + MARKERS);
        if (!server.awaitStarted(BOOT)) {
            throw new AssertionError("the crash test's WAR did not deploy; see " + server.logFile());
        }
    }

    /** SIGKILL, and the exit status that proves it. */
    private void kill() throws InterruptedException {
        server.kill();
        assertEquals(137, server.process().exitValue(), "killed by SIGKILL (128 + 9)");
    }

    private void awaitMarker(String orderId, String point) throws Exception {
        Path marker = MARKERS.resolve(orderId + "." + point);
        long deadline = System.nanoTime() + MARKER.toNanos();
        while (!Files.exists(marker)) {
            if (System.nanoTime() - deadline > 0) {
                String[] seen = MARKERS.toFile().list();
                throw new AssertionError("the server did not reach " + point + " within " + MARKER + "; markers: "
                        + String.join(", ", seen == null ? new String[0] : seen));
            }
            Thread.sleep(50);
        }
    }

    private static void assertNoSuccess(CompletableFuture<HttpResponse<String>> request) throws Exception {
        try {
            HttpResponse<String> r = request.get(60, TimeUnit.SECONDS);
            throw new AssertionError("the killed request was answered: " + r.statusCode() + " " + r.body());
        } catch (ExecutionException expected) {
            assertTrue(expected.getCause() instanceof IOException, () -> "the connection broke: " + expected);
        }
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + PORT + "/crash-it/api/orders");
    }

    private HttpRequest request(String orderId, String key, String crash) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base())
                .header("Content-Type", "text/plain")
                .header("Idempotency-Key", key)
                .timeout(Duration.ofMinutes(2))
                .POST(HttpRequest.BodyPublishers.ofString(orderId));
        if (crash != null) {
            b.header("X-Crash", crash);
        }
        return b.build();
    }

    private HttpResponse<String> post(String orderId, String key) throws Exception {
        return client.send(request(orderId, key, null), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> postAsync(String orderId, String key, String crash) {
        return client.sendAsync(request(orderId, key, crash), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean replayed(HttpResponse<?> r) {
        return "true".equals(r.headers().firstValue("Idempotent-Replayed").orElse(""));
    }

    private static int rows(String orderId) throws SQLException {
        return EffectRows.count(CrashOrdersResource.TABLE, "order_id", orderId);
    }

    /** Committed records of a key sent without authentication (the filter's default scope). */
    private static int records(String key) throws SQLException {
        return EffectRows.count(
                "idempotency_record",
                "idem_key",
                RecordKey.of(CrashOrdersResource.OPERATION, "anonymous", key).storeKey());
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
