package dev.idempotency.it.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.it.Deployments;
import dev.idempotency.it.EffectRows;
import dev.idempotency.it.http.app.ApiKeyGates;
import dev.idempotency.it.matrix.app.JoinedChargesResource;
import dev.idempotency.it.matrix.app.MatrixEffects;
import dev.idempotency.it.matrix.app.Outcome;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP fault matrix, run on one store per subclass: every guarded JAX-RS entry style (a
 * synchronous method under each transaction type, a {@code CompletionStage}, a suspended {@code
 * AsyncResponse}; the joined mode where the store has it) against every way a call can end (returns,
 * an unmapped exception that rolls back, a mapped exception in {@code dontRollbackOn}, a response that
 * fails to serialize after the method returned) and against concurrent duplicates under {@code REJECT}
 * and {@code WAIT}.
 *
 * <p>The effect of every execution is a row in PostgreSQL ({@link MatrixEffects#TABLE}, no unique
 * constraint), counted here on a connection of the test's own. Every case checks what README.md
 * promises: the rows after the first call, that a retry after a committed effect replays and adds no
 * row, that a retry after an undone effect runs once, and that no duplicate ever gets a 5xx.
 */
@ExtendWith(ArquillianExtension.class)
abstract class HttpFaultMatrix {

    private static final int DUPLICATES = 8;
    private static final long OVERLAP_MILLIS = 800;

    /**
     * The test WAR: the matrix app, a JTA data source on the tests' PostgreSQL database, and the
     * given configuration lines.
     */
    static WebArchive deployment(String name, String... config) {
        return Deployments.withPostgres(
                Deployments.war(name)
                        .addPackage(MatrixEffects.class.getPackage())
                        .addClasses(HttpFaultMatrix.class, Races.class, ApiKeyGates.class, ApiKeyGates.AfterGuard.class)
                        .addAsResource(
                                new StringAsset(String.join("\n", config) + "\n"),
                                "META-INF/microprofile-config.properties"),
                MatrixEffects.DATASOURCE);
    }

    /** Whether the deployment puts {@link JoinedChargesResource}'s operations in the joined mode. */
    abstract boolean joinedMode();

    /** A guarded resource method of the matrix. */
    enum Entry {
        NONE("charges/none", false),
        REQUIRED("charges/required", true),
        REQUIRES_NEW("charges/requires-new", true),
        NOT_SUPPORTED("charges/not-supported", false),
        WAIT("charges/wait", true),
        STAGE("charges/stage", true),
        SUSPENDED("charges/suspended", true),
        JOINED_NONE("joined/none", true),
        JOINED_REQUIRED("joined/required", true),
        JOINED_REQUIRES_NEW("joined/requires-new", true),
        JOINED_NOT_SUPPORTED("joined/not-supported", false),
        JOINED_WAIT("joined/wait", true);

        final String path;
        /** Whether its work runs in a transaction that an unmapped exception rolls back. */
        final boolean rollsBack;

        Entry(String path, boolean rollsBack) {
            this.path = path;
            this.rollsBack = rollsBack;
        }

        boolean joined() {
            return path.startsWith("joined/");
        }

        boolean waits() {
            return this == WAIT || this == JOINED_WAIT;
        }
    }

    @ArquillianResource
    URL deployed;

    @Inject
    MatrixEffects effects;

    // By its standard name: Arquillian's field injection on Open Liberty leaves an unnamed @Resource null.
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    private final HttpClient client = Deployments.httpClient();

    private List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        for (Entry e : Entry.values()) {
            if (!e.joined() || joinedMode()) {
                entries.add(e);
            }
        }
        return entries;
    }

    /**
     * Every entry, every way the first call ends, then a retry asking for success and a repeat:
     *
     * <ul>
     *   <li>returns: one row, the retry replays the 201 byte for byte;
     *   <li>{@code dontRollbackOn} exception mapped to 402: the work committed, one row, the 402 is
     *       kept and replayed;
     *   <li>the response fails to serialize after the method returned: one row, the retry gets 409
     *       {@code response-not-replayable} and never runs;
     *   <li>a {@code BadRequestException} (400) in a {@code REQUIRED} transaction, separate and joined:
     *       the work rolls back, the 400 is kept and replayed, nothing runs again;
     *   <li>an unmapped exception: the key is released (README: "threw an unmapped exception"); where
     *       the work ran in a transaction it rolled back, so no row and the retry runs once; where it
     *       ran without one, its row stays and the retry runs again (a method that throws after
     *       committing work outside a transaction tells the guard it did nothing).
     * </ul>
     */
    @Test
    void everyEntryAndEveryEndingLeavesTheRowsTheReadmePromises() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Entry entry : entries()) {
            for (Outcome outcome : Outcome.values()) {
                if (outcome == Outcome.REJECTED && entry != Entry.REQUIRED && entry != Entry.JOINED_REQUIRED) {
                    continue; // a rolled-back 4xx: the transaction's own method, separate and joined
                }
                runCase(entry, outcome, failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    private void runCase(Entry entry, Outcome outcome, List<String> failures) throws Exception {
        String id = "m-" + entry + "-" + outcome + "-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        Case c = new Case(entry, outcome, failures);

        HttpResponse<String> first = post(entry, id, key, outcome, 0);
        int rowsAfterFirst = rows(id);
        switch (outcome) {
            case OK -> c.check("first: 201 fresh", first.statusCode() == 201 && !replayed(first), first);
            case DECLINED -> c.check("first: 402", first.statusCode() == 402 && !replayed(first), first);
            case REJECTED -> c.check("first: 400", first.statusCode() == 400 && !replayed(first), first);
            case UNWRITABLE, FATAL -> c.check("first: the server's 500", first.statusCode() >= 500, first);
        }
        boolean undone = (outcome == Outcome.FATAL || outcome == Outcome.REJECTED) && entry.rollsBack;
        c.check(
                "rows after the first call: " + (undone ? 0 : 1) + ", were " + rowsAfterFirst,
                rowsAfterFirst == (undone ? 0 : 1));

        HttpResponse<String> retry = post(entry, id, key, Outcome.OK, 0);
        int rows = rows(id);
        int executions = effects.executions(id);
        switch (outcome) {
            case OK, DECLINED -> {
                c.check(
                        "retry replays the first response",
                        replayed(retry)
                                && retry.statusCode() == first.statusCode()
                                && retry.body().equals(first.body()),
                        retry);
                c.check("one row and one execution, were " + rows + "/" + executions, rows == 1 && executions == 1);
            }
            case REJECTED -> {
                // Its work rolled back, and its 400 is kept (in the joined mode apart from the rolled-back
                // transaction): the retry replays the 400 and runs nothing.
                c.check(
                        "retry replays the 400",
                        replayed(retry)
                                && retry.statusCode() == 400
                                && retry.body().equals(first.body()),
                        retry);
                c.check("no row and one execution, were " + rows + "/" + executions, rows == 0 && executions == 1);
            }
            case UNWRITABLE -> {
                c.check(
                        "retry: 409 response-not-replayable",
                        retry.statusCode() == 409
                                && replayed(retry)
                                && retry.body().contains("response-not-replayable"),
                        retry);
                c.check("one row and one execution, were " + rows + "/" + executions, rows == 1 && executions == 1);
            }
            case FATAL -> {
                c.check(
                        "retry runs: 201 fresh, run 2",
                        retry.statusCode() == 201
                                && !replayed(retry)
                                && retry.body().endsWith(" run 2"),
                        retry);
                int expectedRows = undone ? 1 : 2;
                c.check(
                        "rows " + expectedRows + " and two executions, were " + rows + "/" + executions,
                        rows == expectedRows && executions == 2);
            }
        }
        HttpResponse<String> repeat = post(entry, id, key, Outcome.OK, 0);
        c.check(
                "a repeat replays the retry's response",
                replayed(repeat)
                        && repeat.statusCode() == retry.statusCode()
                        && repeat.body().equals(retry.body()),
                repeat);
        c.check("the repeat added no row", rows(id) == rows && effects.executions(id) == executions);
    }

    /**
     * An application's request filter after the guard's ({@link ApiKeyGates.AfterGuard}) refuses the
     * first request with 401 on every entry, synchronous, asynchronous and joined: the resource never
     * ran, so the key is given back (in the joined mode the filter's transaction, claim included, rolls
     * back), and the corrected retry runs once and is stored.
     */
    @Test
    void aRefusalByALaterRequestFilterReleasesTheKeyOnEveryEntry() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Entry entry : entries()) {
            String id = "gate-" + entry + "-" + UUID.randomUUID();
            String key = UUID.randomUUID().toString();
            Case c = new Case(entry, Outcome.OK, failures);
            HttpResponse<String> refused =
                    post(entry, id, key, Outcome.OK, 0, ApiKeyGates.GATE, ApiKeyGates.AfterGuard.NAME);
            c.check("first: 401 from the filter", refused.statusCode() == 401 && !replayed(refused), refused);
            c.check(
                    "no row and no execution after the refusal, were " + rows(id) + "/" + effects.executions(id),
                    rows(id) == 0 && effects.executions(id) == 0);
            String[] corrected = {ApiKeyGates.GATE, ApiKeyGates.AfterGuard.NAME, ApiKeyGates.API_KEY, "k1"};
            HttpResponse<String> retry = post(entry, id, key, Outcome.OK, 0, corrected);
            c.check(
                    "corrected retry runs: 201 fresh, run 1",
                    retry.statusCode() == 201
                            && !replayed(retry)
                            && retry.body().endsWith(" run 1"),
                    retry);
            HttpResponse<String> repeat = post(entry, id, key, Outcome.OK, 0, corrected);
            c.check(
                    "a repeat replays the retry's response",
                    replayed(repeat)
                            && repeat.statusCode() == 201
                            && repeat.body().equals(retry.body()),
                    repeat);
            c.check(
                    "one row and one execution, were " + rows(id) + "/" + effects.executions(id),
                    rows(id) == 1 && effects.executions(id) == 1);
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    /**
     * {@value #DUPLICATES} concurrent requests with one key on every entry that rejects duplicates:
     * one execution, one row, one fresh 201; every other answer is 409 in-progress or the replay;
     * never a 5xx.
     */
    @Test
    void concurrentDuplicatesUnderRejectRunOnce() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Entry entry : entries()) {
            if (!entry.waits()) {
                race(entry, failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    /**
     * {@value #DUPLICATES} concurrent requests with one key on the {@code WAIT} entries: one
     * execution, one row, and every caller gets the same 201.
     */
    @Test
    void concurrentDuplicatesUnderWaitAllGetTheFirstResponse() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Entry entry : entries()) {
            if (entry.waits()) {
                race(entry, failures);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    private void race(Entry entry, List<String> failures) throws Exception {
        String id = "race-" + entry + "-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        Case c = new Case(entry, Outcome.OK, failures);
        ExecutorService pool = Executors.newFixedThreadPool(DUPLICATES, threads);
        List<Object> answers;
        try {
            answers = Races.race(pool, DUPLICATES, () -> {
                try {
                    return post(entry, id, key, Outcome.OK, OVERLAP_MILLIS);
                } catch (Exception e) {
                    return new IllegalStateException("request failed: " + e, e);
                }
            });
        } finally {
            pool.shutdownNow();
        }
        int fresh = 0;
        String body = null;
        for (Object a : answers) {
            if (!(a instanceof HttpResponse<?> r)) {
                c.check("a response, not " + a, false);
                continue;
            }
            @SuppressWarnings("unchecked")
            HttpResponse<String> response = (HttpResponse<String>) r;
            if (response.statusCode() == 201) {
                if (!replayed(response)) {
                    fresh++;
                }
                if (body == null) {
                    body = response.body();
                }
                c.check("every 201 has the same body", body.equals(response.body()), response);
            } else if (entry.waits()) {
                c.check("WAIT: every duplicate gets the 201", false, response);
            } else {
                c.check(
                        "201 or 409 in-progress",
                        response.statusCode() == 409 && response.body().contains("in-progress"),
                        response);
            }
        }
        int rows = rows(id);
        c.check("exactly one fresh 201, were " + fresh, fresh == 1);
        c.check(
                "one row and one execution, were " + rows + "/" + effects.executions(id),
                rows == 1 && effects.executions(id) == 1);
    }

    /**
     * A suspended response that times out (503) while its work runs on: the key stays claimed past the
     * lease, and the work's effect is written once for the key. After the work ended, a retry gets 409
     * where the guard cannot see the late resume (a resource class that is no CDI bean), or the late
     * response where it can.
     */
    @Test
    void aSuspendedResponseThatTimesOutRunsItsWorkOnceForItsKey() throws Exception {
        String id = "times-out-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        HttpResponse<String> first = postTo("charges/suspended-times-out", id, key);
        assertEquals(503, first.statusCode(), () -> "the timeout's answer: " + abbreviate(first.body()));
        HttpResponse<String> running = postTo("charges/suspended-times-out", id, key);
        assertEquals(409, running.statusCode(), () -> "a retry while the work runs: " + abbreviate(running.body()));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (rows(id) < 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(1, rows(id), "the work's effect row within 30 s");
        Thread.sleep(4_000); // two leases of the operation past the work's end
        HttpResponse<String> later = postTo("charges/suspended-times-out", id, key);
        if (later.statusCode() != 409) {
            // The resource class is a CDI bean on this server (Payara, GlassFish), so the guard saw the
            // late resume and stored its response (docs/http.md): the retry replays it.
            assertEquals(201, later.statusCode(), () -> "a retry after the work ended: " + abbreviate(later.body()));
            assertEquals(
                    "true", later.headers().firstValue("Idempotent-Replayed").orElse(""), "replayed");
            assertTrue(later.body().endsWith(" run 1"), () -> "the late response: " + abbreviate(later.body()));
        }
        assertEquals(1, rows(id), "effect rows of the key");
        assertEquals(1, effects.executions(id), "executions of the key");
    }

    /**
     * Fault Tolerance's {@code @Timeout} on a resource method: the request fails (5xx) while the body
     * runs on, past its lease; a retry meanwhile gets 409, and after the body ended its response is
     * stored and replayed. The effect is written once for the key. Where the server has no Fault Tolerance (GlassFish) the
     * first request simply answers 201 late.
     */
    @Test
    void aFaultToleranceTimeoutRunsItsWorkOnceForItsKey() throws Exception {
        String id = "ft-timeout-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        java.util.concurrent.CompletableFuture<HttpResponse<String>> first =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        return postTo("charges/fault-tolerance-timeout", id, key);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
        Thread.sleep(500); // the first request runs its body
        HttpResponse<String> running = postTo("charges/fault-tolerance-timeout", id, key);
        assertEquals(409, running.statusCode(), () -> "a retry while the body runs: " + abbreviate(running.body()));
        HttpResponse<String> answered = first.get(60, TimeUnit.SECONDS);
        boolean faultTolerance = Thread.currentThread()
                        .getContextClassLoader()
                        .getResource("org/eclipse/microprofile/faulttolerance/Timeout.class")
                != null;
        if (faultTolerance) {
            assertTrue(answered.statusCode() >= 500, () -> "the timeout's answer: " + answered.statusCode());
        } else {
            assertEquals(201, answered.statusCode(), () -> "without Fault Tolerance: " + abbreviate(answered.body()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (rows(id) < 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(1, rows(id), "the body's effect row within 30 s");
        HttpResponse<String> later = postTo("charges/fault-tolerance-timeout", id, key);
        for (deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                later.statusCode() == 409 && System.nanoTime() < deadline; ) {
            Thread.sleep(50);
            later = postTo("charges/fault-tolerance-timeout", id, key);
        }
        HttpResponse<String> replay = later;
        assertEquals(201, replay.statusCode(), () -> "a retry after the body ended: " + abbreviate(replay.body()));
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(""), "replayed");
        assertTrue(replay.body().endsWith(" run 1"), () -> "the body's response: " + abbreviate(replay.body()));
        assertEquals(1, rows(id), "effect rows of the key");
        assertEquals(1, effects.executions(id), "executions of the key");
    }

    private HttpResponse<String> postTo(String path, String id, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        Deployments.loopback(deployed).resolve("api/" + path))
                .header("Content-Type", "text/plain")
                .header("Idempotency-Key", key)
                .timeout(Duration.ofMinutes(1))
                .POST(HttpRequest.BodyPublishers.ofString(id))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Collects a case's failed checks, each naming the entry and the ending. */
    private record Case(Entry entry, Outcome outcome, List<String> failures) {
        void check(String what, boolean ok) {
            if (!ok) {
                failures.add(entry + " / " + outcome + ": " + what);
            }
        }

        void check(String what, boolean ok, HttpResponse<String> r) {
            check(
                    what + " (got " + r.statusCode() + (replayed(r) ? " replayed" : "") + ": " + abbreviate(r.body())
                            + ")",
                    ok);
        }
    }

    private HttpResponse<String> post(
            Entry entry, String id, String key, Outcome outcome, long pauseMillis, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        Deployments.loopback(deployed).resolve("api/" + entry.path))
                .header("Content-Type", "text/plain")
                .header("Idempotency-Key", key)
                .header("X-Outcome", outcome.name())
                .header("X-Pause", Long.toString(pauseMillis))
                .timeout(Duration.ofMinutes(1))
                .POST(HttpRequest.BodyPublishers.ofString(id));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static boolean replayed(HttpResponse<?> r) {
        return "true".equals(r.headers().firstValue("Idempotent-Replayed").orElse(""));
    }

    private static String abbreviate(String s) {
        String flat = s == null ? "" : s.replaceAll("\\s+", " ");
        return flat.length() > 160 ? flat.substring(0, 160) + "..." : flat;
    }

    @BeforeEach
    void effectTable() throws SQLException {
        EffectRows.createTable(MatrixEffects.TABLE, "effect_key");
    }

    /** Committed rows of an effect, counted on a connection of the test's own. */
    private static int rows(String id) throws SQLException {
        return EffectRows.count(MatrixEffects.TABLE, "effect_key", id);
    }
}
