package dev.idempotency.it.http;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.it.Deployments;
import dev.idempotency.it.http.app.ApiKeyGates;
import dev.idempotency.it.http.app.AsyncBeanOrdersResource;
import dev.idempotency.it.http.app.AsyncOrdersResource;
import dev.idempotency.it.http.app.CartsResource;
import dev.idempotency.it.http.app.Counter;
import dev.idempotency.it.http.app.CounterResource;
import dev.idempotency.it.http.app.ExchangeHeaders;
import dev.idempotency.it.http.app.FlakyStore;
import dev.idempotency.it.http.app.HttpApp;
import dev.idempotency.it.http.app.MappedFailure;
import dev.idempotency.it.http.app.NestedStep;
import dev.idempotency.it.http.app.OrdersResource;
import dev.idempotency.it.http.app.Security;
import dev.idempotency.it.http.app.ShapesResource;
import dev.idempotency.it.http.app.TicketsApi;
import dev.idempotency.it.http.app.TicketsResource;
import dev.idempotency.it.http.app.TimedOrdersResource;
import dev.idempotency.spi.Races;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Idempotency-Key filter in the container (every server of the Maven profiles), over real HTTP to 127.0.0.1: one deployment, every rule
 * of issue 3. The application registers nothing: the library jar's DynamicFeature does.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpIdempotencyIT {

    private static final String KEY = "Idempotency-Key";
    private static final String REPLAYED = "Idempotent-Replayed";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.war("http-it.war")
                .addClasses(
                        HttpApp.class,
                        ApiKeyGates.class,
                        ApiKeyGates.AfterGuard.class,
                        ApiKeyGates.Authentication.class,
                        ApiKeyGates.Throwing.class,
                        ApiKeyGates.Unprioritized.class,
                        AsyncOrdersResource.class,
                        AsyncBeanOrdersResource.class,
                        AsyncBeanOrdersResource.Receipt.class,
                        CartsResource.class,
                        CartsResource.Items.class,
                        CartsResource.Notes.class,
                        Counter.class,
                        CounterResource.class,
                        ExchangeHeaders.class,
                        ExchangeHeaders.Encoder.class,
                        ExchangeHeaders.RequestId.class,
                        FlakyStore.class,
                        MappedFailure.class,
                        MappedFailure.Mapper.class,
                        NestedStep.class,
                        OrdersResource.class,
                        Security.class,
                        ShapesResource.class,
                        ShapesResource.Cart.class,
                        ShapesResource.Line.class,
                        TicketsApi.class,
                        TicketsResource.class,
                        TimedOrdersResource.class)
                .addAsResource(
                        new StringAsset("idempotency.store=flaky\n"
                                + "idempotency.application=" + CounterResource.APPLICATION + "\n"
                                + "idempotency.http.max-stored-body=4096\n"
                                + "idempotency.http.fingerprint-headers=X-Currency\n"
                                + "idempotency.wait.max-per-caller=2\n"),
                        "META-INF/microprofile-config.properties");
    }

    @ArquillianResource
    URL deployed;

    private final HttpClient client = Deployments.httpClient();

    /** The application's base, always on 127.0.0.1 whatever host name the server reports. */
    private URI base() {
        return Deployments.loopback(deployed);
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private HttpResponse<byte[]> send(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base().resolve("api/" + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "text/plain");
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> post(String path, String body, String... headers) throws Exception {
        return send("POST", path, body, headers);
    }

    private int count(String name) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(base().resolve(
                                        "api/control/count?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8)))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return Integer.parseInt(r.body());
    }

    /** Waits until a name ran {@code expected} times; fails with what it saw when the time is up. */
    private void awaitCount(String name, int expected, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        int seen = count(name);
        while (seen < expected) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + " ran " + seen + " times within " + limit + ", expected " + expected);
            }
            Thread.sleep(20);
            seen = count(name);
        }
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static boolean replayed(HttpResponse<?> r) {
        return r.headers().firstValue(REPLAYED).orElse("").equals("true");
    }

    private static void assertProblem(HttpResponse<byte[]> r, int status, String type) {
        assertEquals(status, r.statusCode(), () -> text(r));
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        String body = text(r);
        assertTrue(body.contains("\"type\":\"urn:idempotency-ee:problem:" + type + "\""), body);
        assertTrue(body.contains("\"status\":" + status), body);
        assertTrue(body.contains("\"title\":\""), body);
        assertTrue(body.contains("\"detail\":\""), body);
        assertFalse(body.contains("Exception") || body.contains("\tat "), "no stack trace: " + body);
    }

    // Declarations: a resource interface and a sub-resource are guarded as a resource class is.

    @Test
    void aResourceInterfaceDeclarationIsGuarded() throws Exception {
        String subject = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("tickets", subject, KEY, key);
        assertEquals(200, first.statusCode(), () -> text(first));
        HttpResponse<byte[]> again = post("tickets", subject, KEY, key);
        assertEquals(200, again.statusCode(), () -> text(again));
        assertEquals(subject + "-1", text(again), "replayed");
        assertTrue(replayed(again));
        assertEquals(1, count("ticket:" + subject), "executions for one key");
        assertProblem(post("tickets", subject), 400, "key-missing");
        assertEquals(1, count("ticket:" + subject), "the interface's required = true applies");
    }

    @Test
    void aSubResourceMethodIsGuarded() throws Exception {
        String item = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("carts/c1/items", item, KEY, key);
        assertEquals(200, first.statusCode(), () -> text(first));
        HttpResponse<byte[]> again = post("carts/c1/items", item, KEY, key);
        assertEquals("c1:" + item + "-1", text(again), "replayed");
        assertTrue(replayed(again));
        assertEquals(1, count("item:c1:" + item), "executions for one key");
        assertProblem(post("carts/c2/items", item), 400, "key-missing");
        assertEquals(0, count("item:c2:" + item), "required = true applies to the sub-resource");
    }

    @Test
    void twoSubResourcesAreTwoOperations() throws Exception {
        String text = unique();
        String key = unique();
        HttpResponse<byte[]> item = post("carts/c3/items", text, KEY, key);
        assertEquals(200, item.statusCode(), () -> text(item));
        HttpResponse<byte[]> note = post("carts/c3/notes", text, KEY, key);
        assertEquals(200, note.statusCode(), () -> "the other sub-resource's operation, not its record: " + text(note));
        assertFalse(replayed(note));
        assertEquals(1, count("note:c3:" + text), "the note ran under the key the item used");
    }

    // Rule 7: replay is faithful.

    @Test
    void replaysA201ByteForByteWithLocationAndSafeHeadersOnly() throws Exception {
        String body = unique();
        String key = UUID.randomUUID().toString();
        HttpResponse<byte[]> first = post("orders", body, KEY, key);
        assertEquals(201, first.statusCode(), () -> text(first));
        assertFalse(first.headers().firstValue(REPLAYED).isPresent());
        assertTrue(first.headers().firstValue("Set-Cookie").isPresent(), "the first response sets a cookie");
        String location = first.headers().firstValue("Location").orElseThrow();
        assertTrue(location.endsWith("/api/orders/" + body + "-1"), location);

        HttpResponse<byte[]> again = post("orders", body, KEY, key);
        assertEquals(201, again.statusCode());
        assertArrayEquals(first.body(), again.body(), "exact body bytes");
        for (String h : List.of("Location", "ETag", "Content-Type", "Content-Language", "X-Run")) {
            assertEquals(first.headers().allValues(h), again.headers().allValues(h), h);
        }
        assertFalse(again.headers().firstValue("Set-Cookie").isPresent(), "cookies are never replayed");
        assertTrue(replayed(again));
        assertEquals(1, count("create:" + body));
        // What an encoder and another filter add is theirs, added again to the replay, never stored too.
        assertEquals(List.of("ran"), first.headers().allValues("X-Encoder"));
        assertEquals(List.of("ran"), again.headers().allValues("X-Encoder"), "an encoder's header once");
        assertEquals(1, again.headers().allValues("X-Request-Id").size(), "another filter's header once");
        assertNotEquals(
                first.headers().firstValue("X-Request-Id").orElseThrow(),
                again.headers().firstValue("X-Request-Id").orElseThrow(),
                "the replay's own request id, not the stored one");
    }

    /** idempotency.application: the HTTP guard writes a route's record in the application's namespace. */
    @Test
    void theApplicationNameIsInTheRecordKey() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpResponse<byte[]> first = post("orders", unique(), KEY, key);
        assertEquals(201, first.statusCode(), () -> text(first));
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(base().resolve("api/control/record?operation="
                                + URLEncoder.encode("POST /orders", StandardCharsets.UTF_8) + "&scope=anonymous&key="
                                + key))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r::body);
        assertEquals("COMPLETED/none", r.body(), "named/unnamed record of the key");
    }

    @Test
    void quotedAndBareFormsAreTheSameKey() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("orders", body, KEY, "\"" + key + "\"");
        HttpResponse<byte[]> again = post("orders", body, KEY, key);
        assertEquals(201, first.statusCode());
        assertArrayEquals(first.body(), again.body());
        assertTrue(replayed(again));
        assertEquals(1, count("create:" + body));
    }

    @Test
    void responseWithoutBodyReplaysStatusAndHeaders() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("orders/nobody", body, KEY, key);
        HttpResponse<byte[]> again = post("orders/nobody", body, KEY, key);
        assertEquals(204, first.statusCode());
        assertEquals(204, again.statusCode());
        assertEquals("1", again.headers().firstValue("X-Run").orElse(""));
        assertTrue(replayed(again));
        assertEquals(1, count("nobody:" + body));
    }

    @Test
    void mapped4xxIsKeptWhileRetryableStatusesAnd5xxAndUnmappedExceptionsReleaseTheKey() throws Exception {
        for (int status : new int[] {400, 404, 422}) {
            String body = unique();
            String key = unique();
            HttpResponse<byte[]> first = post("orders/mapped/" + status, body, KEY, key);
            HttpResponse<byte[]> again = post("orders/mapped/" + status, body, KEY, key);
            assertEquals(status, first.statusCode());
            assertEquals(status, again.statusCode());
            assertArrayEquals(first.body(), again.body());
            assertTrue(replayed(again), "a " + status + " is an outcome and is replayed");
            assertEquals(1, count("mapped:" + status + ":" + body));
        }
        for (int status : new int[] {408, 409, 425, 429, 500, 503}) {
            String body = unique();
            String key = unique();
            assertEquals(status, post("orders/mapped/" + status, body, KEY, key).statusCode());
            HttpResponse<byte[]> again = post("orders/mapped/" + status, body, KEY, key);
            assertEquals(status, again.statusCode());
            assertFalse(replayed(again));
            assertEquals(2, count("mapped:" + status + ":" + body), status + " releases the key: the retry runs");
        }
        String body = unique();
        String key = unique();
        assertEquals(500, post("orders/unmapped", body, KEY, key).statusCode());
        assertEquals(500, post("orders/unmapped", body, KEY, key).statusCode());
        assertEquals(2, count("unmapped:" + body), "an unmapped exception releases the key at once");
    }

    /**
     * An application's API key filter refuses the first request; the corrected retry with the same key
     * runs the resource. After the guard's filter (which has claimed the key) the refusal is no outcome
     * of the operation, as the resource never ran; before it (authentication) nothing was claimed.
     */
    @Test
    void aRefusalByALaterRequestFilterIsNotStoredAndTheCorrectedRetryRuns() {
        assertAll(Stream.of(
                        ApiKeyGates.AfterGuard.NAME,
                        ApiKeyGates.Unprioritized.NAME,
                        ApiKeyGates.Throwing.NAME,
                        ApiKeyGates.Authentication.NAME)
                .map(gate -> () -> refusedThenCorrected(gate)));
    }

    private void refusedThenCorrected(String gate) throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> refused = post("orders", body, KEY, key, ApiKeyGates.GATE, gate);
        assertEquals(401, refused.statusCode(), () -> gate + ": " + text(refused));
        assertEquals(0, count("create:" + body), gate + ": the resource did not run");
        HttpResponse<byte[]> corrected =
                post("orders", body, KEY, key, ApiKeyGates.GATE, gate, ApiKeyGates.API_KEY, "k1");
        assertEquals(
                201,
                corrected.statusCode(),
                () -> gate + ": the corrected retry runs; got" + (replayed(corrected) ? " a replayed " : " ")
                        + corrected.statusCode() + " " + text(corrected));
        assertFalse(replayed(corrected), gate + ": not a replay");
        assertEquals(1, count("create:" + body), gate + ": the corrected retry ran the resource");
        HttpResponse<byte[]> again = post("orders", body, KEY, key, ApiKeyGates.GATE, gate, ApiKeyGates.API_KEY, "k1");
        assertEquals(201, again.statusCode(), () -> gate + ": " + text(again));
        assertTrue(replayed(again), gate + ": its 201 is the stored outcome");
        assertArrayEquals(corrected.body(), again.body(), gate);
        assertEquals(1, count("create:" + body), gate + ": the repeat replayed");
    }

    @Test
    void oversizeResponseIsNotStoredAndRepeatsGetAProblemInsteadOfARerun() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("orders/big?size=10000", body, KEY, key);
        assertEquals(200, first.statusCode());
        assertEquals(10_000, first.body().length, "the first caller gets the whole response");
        HttpResponse<byte[]> again = post("orders/big?size=10000", body, KEY, key);
        assertProblem(again, 409, "response-not-stored");
        assertTrue(replayed(again));
        assertEquals(1, count("big:" + body), "never silently re-executed");
        HttpResponse<byte[]> small = post("orders/big?size=4000", body, KEY, unique());
        HttpResponse<byte[]> smallAgain = post(
                "orders/big?size=4000",
                body,
                KEY,
                small.request().headers().firstValue(KEY).orElseThrow());
        assertArrayEquals(small.body(), smallAgain.body(), "a body under the limit is replayed");
    }

    /**
     * A resource method that returned has had its effect, even when its entity then fails to
     * serialize: the first caller gets the server's error, every retry a 409 problem, and the method
     * never runs again (it used to release the key, so each retry ran it once more).
     */
    @Test
    void aResponseThatCannotBeWrittenIsRecordedAndNeverRunAgain() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> first = post("orders/unwritable", body, KEY, key);
        assertTrue(first.statusCode() >= 500, () -> "the first caller gets the server's error: " + first.statusCode());
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> again = post("orders/unwritable", body, KEY, key);
            assertProblem(again, 409, "response-not-replayable");
            assertTrue(replayed(again));
        }
        assertEquals(1, count("unwritable:" + body), "never re-executed");
    }

    /**
     * Asynchronous resource methods (a CompletionStage, and a suspended AsyncResponse) on a class that
     * is not a CDI bean: the claim is held until the response is produced, so a duplicate sent once the
     * first has started (and 3 s before its response) gets 409, and a repeat afterwards gets the replay;
     * one execution.
     */
    @Test
    void asynchronousResourceMethodsHoldTheClaimUntilTheirResponseAndReplayIt() throws Exception {
        for (String kind : List.of("stage", "suspended")) {
            String body = unique();
            String key = unique();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<HttpResponse<byte[]>> first = pool.submit(() -> post("async/" + kind, body, KEY, key));
                awaitCount("async-" + kind + ":" + body, 1, Duration.ofSeconds(30));
                // The first request has claimed the key and started; its response comes 3 s after that.
                HttpResponse<byte[]> duplicate = post("async/" + kind, body, KEY, key);
                assertProblem(duplicate, 409, "in-progress");
                HttpResponse<byte[]> original = first.get(1, TimeUnit.MINUTES);
                assertEquals(201, original.statusCode(), () -> kind + ": " + text(original));
                assertEquals(kind + " " + body + " 1", text(original));
                HttpResponse<byte[]> again = post("async/" + kind, body, KEY, key);
                assertEquals(201, again.statusCode(), () -> kind + ": " + text(again));
                assertArrayEquals(original.body(), again.body(), kind);
                assertTrue(replayed(again), kind + " is replayed");
                assertEquals(1, count("async-" + kind + ":" + body), kind + ": one execution");
                assertProblem(post("async/" + kind, body), 400, "key-missing");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * A suspended response that times out (503 after 1 s) while its work goes on: the key stays
     * claimed, so a retry gets 409 instead of running the work again. After the work ended, a retry
     * gets 409 still where the late resume is not seen (the class is no CDI bean), or the late response
     * where it is (Payara and GlassFish make such a class a bean). One execution either way.
     */
    @Test
    void aSuspendedResponseThatTimesOutHoldsTheKeyWhileItsWorkRuns() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> first = postOnItsOwnConnection("async/times-out", body, key);
        assertEquals(503, first.statusCode(), () -> "the timeout's answer: " + text(first));
        assertProblem(post("async/times-out", body, KEY, key), 409, "in-progress");
        assertEquals(1, count("async-times-out:" + body), "one execution while the work runs");
        awaitCount("async-times-out-done:" + body, 1, Duration.ofSeconds(30));
        HttpResponse<byte[]> after = afterTheWork("async/times-out", body, key);
        if (after.statusCode() == 409) {
            assertProblem(after, 409, "in-progress");
        } else {
            assertEquals(201, after.statusCode(), () -> text(after));
            assertEquals("late " + body + " 1", text(after));
            assertTrue(replayed(after));
        }
        assertEquals(1, count("async-times-out:" + body), "one execution after the work ended");
    }

    /**
     * A request whose response times out, on a connection of its own: the server may read the next
     * request on its connection only once the late work resumed, which would delay a retry sent on it.
     */
    private HttpResponse<byte[]> postOnItsOwnConnection(String path, String body, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base().resolve("api/" + path))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "text/plain")
                .header(KEY, key)
                .build();
        return Deployments.httpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * The same on a resource class that is a CDI bean: the guard sees the late resume, so once the work
     * ended, a retry gets its response (a text body with its header; an entity written as JSON), not 409.
     * A work that ends with an exception gives the key back: the retry runs again. While the work
     * runs, a retry gets 409. One execution per key when the work succeeded.
     */
    @Test
    void aSuspendedResponseOfACdiBeanThatTimesOutStoresItsLateResponse() throws Exception {
        String text = unique();
        String json = unique();
        String fails = unique();
        String textKey = unique();
        String jsonKey = unique();
        String failsKey = unique();
        assertEquals(
                503, postOnItsOwnConnection("async-bean/text", text, textKey).statusCode());
        assertProblem(post("async-bean/text", text, KEY, textKey), 409, "in-progress");
        assertEquals(
                503, postOnItsOwnConnection("async-bean/json", json, jsonKey).statusCode());
        assertEquals(
                503, postOnItsOwnConnection("async-bean/fails", fails, failsKey).statusCode());

        awaitCount("async-bean-text-done:" + text, 1, Duration.ofSeconds(30));
        HttpResponse<byte[]> late = afterTheWork("async-bean/text", text, textKey);
        assertEquals(201, late.statusCode(), () -> text(late));
        assertEquals("late " + text + " 1", text(late));
        assertTrue(replayed(late), "the late response is replayed");
        assertEquals(text, late.headers().firstValue("Order-Id").orElse(""), "its own header");
        assertTrue(late.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), "its media type");
        assertEquals(1, count("async-bean-text:" + text), "one execution");

        awaitCount("async-bean-json-done:" + json, 1, Duration.ofSeconds(30));
        HttpResponse<byte[]> entity = afterTheWork("async-bean/json", json, jsonKey);
        assertEquals(200, entity.statusCode(), () -> text(entity));
        assertEquals("{\"order\":\"" + json + "\",\"run\":1}", text(entity));
        assertTrue(entity.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals(1, count("async-bean-json:" + json), "one execution");

        awaitCount("async-bean-fails-done:" + fails, 1, Duration.ofSeconds(30));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        HttpResponse<byte[]> again = postOnItsOwnConnection("async-bean/fails", fails, failsKey);
        while (again.statusCode() == 409 && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            again = postOnItsOwnConnection("async-bean/fails", fails, failsKey);
        }
        assertEquals(503, again.statusCode(), "the key was given back: the retry ran, and timed out again");
        assertEquals(2, count("async-bean-fails:" + fails), "a failed work runs again");
    }

    /**
     * Fault Tolerance's {@code @Timeout} on a resource method (a CDI bean): the request fails at the
     * timeout, a retry meanwhile gets 409, and once the body ended its 201 is stored and replayed; one
     * execution per key. Without Fault Tolerance (GlassFish) the methods answer late and replay as any.
     */
    @Test
    void aFaultToleranceTimeoutOnAResourceStoresTheBodysResponseOnceItEnds() throws Exception {
        boolean faultTolerance = Boolean.parseBoolean(text(send("GET", "timed/ft", "")));
        for (String kind : List.of("sync", "async")) {
            String body = unique();
            String key = unique();
            String name = "timed-" + kind + ":" + body;
            java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> first =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return postOnItsOwnConnection("timed/" + kind, body, key);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            awaitCount(name, 1, Duration.ofSeconds(30));
            assertProblem(post("timed/" + kind, body, KEY, key), 409, "in-progress");
            HttpResponse<byte[]> answered = first.get(60, java.util.concurrent.TimeUnit.SECONDS);
            if (faultTolerance) {
                assertTrue(
                        answered.statusCode() >= 500,
                        () -> kind + ": the timeout's answer, got " + answered.statusCode() + " " + text(answered));
            } else {
                assertEquals(201, answered.statusCode(), () -> kind + ": " + text(answered));
            }
            awaitCount(name + ":done", 1, Duration.ofSeconds(30));
            HttpResponse<byte[]> after = afterTheWork("timed/" + kind, body, key);
            assertEquals(201, after.statusCode(), () -> kind + " after the body ended: " + text(after));
            assertEquals(name + " 1", text(after), kind + ": the body's response");
            assertTrue(replayed(after), kind + ": replayed");
            assertEquals(1, count(name), kind + ": one execution");
        }
    }

    /** A retry once the late outcome is stored: 409 while it is being stored, for at most 10 s. */
    private HttpResponse<byte[]> afterTheWork(String path, String body, String key) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        HttpResponse<byte[]> r = post(path, body, KEY, key);
        while (r.statusCode() == 409 && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            r = post(path, body, KEY, key);
        }
        return r;
    }

    // Rules 1 and 2: guarded once, by the filter; safe methods untouched.

    @Test
    void resourceThatIsACdiBeanIsGuardedOnceAndNestedBeansStayGuarded() throws Exception {
        String body = unique();
        assertEquals("plain 1", text(post("orders/plain", body, KEY, unique())));
        assertEquals(
                "plain 2",
                text(post("orders/plain", body, KEY, unique())),
                "a new key runs again: the CDI interceptor does not replay the resource by its arguments");

        String step = unique();
        assertEquals("resource 1 nested 1", text(post("orders/nested", step, KEY, unique())));
        assertEquals(
                "resource 2 nested 1",
                text(post("orders/nested", step, KEY, unique())),
                "the nested @Idempotent bean is still guarded by the interceptor");
    }

    @Test
    void idempotencyExceptionsOfNestedBeansAreProblemsNotServerErrors() throws Exception {
        HttpResponse<byte[]> missing = send("PUT", "orders/strict?id=", "a");
        assertEquals(400, missing.statusCode());
        assertEquals(
                "application/problem+json",
                missing.headers().firstValue("Content-Type").orElse(""));
        assertTrue(text(missing).contains("urn:idempotency-ee:problem:key-missing"), text(missing));
        assertTrue(text(missing).contains("it.nested.strict"), "the detail names the operation");

        String id = unique();
        assertEquals("strict 1", text(send("PUT", "orders/strict?id=" + id, "a")));
        assertEquals("strict 1", text(send("PUT", "orders/strict?id=" + id, "a")), "replayed");
        HttpResponse<byte[]> mismatch = send("PUT", "orders/strict?id=" + id, "b");
        assertEquals(422, mismatch.statusCode());
        assertTrue(text(mismatch).contains("urn:idempotency-ee:problem:key-mismatch"), text(mismatch));
        assertFalse(text(mismatch).contains(id), "never the raw key");
        assertFalse(text(mismatch).contains("at dev.idempotency"), "never a stack trace");
    }

    @Test
    void safeMethodsAndPutPassThroughWhilePatchIsGuarded() throws Exception {
        String id = unique();
        String key = unique();
        HttpResponse<byte[]> get1 = send("GET", "orders/" + id, "", KEY, key);
        HttpResponse<byte[]> get2 = send("GET", "orders/" + id, "", KEY, key);
        assertEquals("get 1", text(get1));
        assertEquals("get 2", text(get2));
        assertFalse(replayed(get2));
        HttpResponse<byte[]> head = send("HEAD", "orders/" + id, "", KEY, "not valid at all");
        assertEquals(200, head.statusCode(), "HEAD ignores even an invalid key");

        assertEquals("put 1", text(send("PUT", "orders/" + id, "a", KEY, key)));
        assertEquals("put 2", text(send("PUT", "orders/" + id, "a", KEY, key)));

        assertEquals("patch 1", text(send("PATCH", "orders/" + id, "a", KEY, key)));
        HttpResponse<byte[]> patch = send("PATCH", "orders/" + id, "a", KEY, key);
        assertEquals("patch 1", text(patch));
        assertTrue(replayed(patch));
    }

    // Rule 3: key syntax.

    @Test
    void missingKeyRunsUnguardedUnlessRequired() throws Exception {
        String body = unique();
        assertEquals("plain 1", text(post("orders/plain", body)));
        assertEquals("plain 2", text(post("orders/plain", body)));
        assertProblem(post("orders/required", body), 400, "key-missing");
        assertEquals(0, count("required:" + body));
        assertEquals("required 1", text(post("orders/required", body, KEY, unique())));
    }

    @Test
    void malformedKeysAre400() throws Exception {
        String body = unique();
        for (String bad : List.of("k".repeat(256), "\"unterminated", "a b", "a,b", "\"x\";p=1", "\"\"")) {
            assertProblem(post("orders/plain", body, KEY, bad), 400, "key-invalid");
        }
        assertProblem(post("orders/plain", body, KEY, "a", KEY, "b"), 400, "key-invalid");
        assertEquals(0, count("plain:" + body));
        assertEquals(201, post("orders", body, KEY, "k".repeat(255)).statusCode(), "255 characters is fine");
    }

    // Rules 4 and 5: scope and fingerprint.

    @Test
    void twoAuthenticatedUsersWithTheSameKeyGetTheirOwnResults() throws Exception {
        String body = unique();
        String key = unique();
        HttpResponse<byte[]> alice = post("orders/whoami", body, KEY, key, "Authorization", basic("alice"));
        HttpResponse<byte[]> bob = post("orders/whoami", body, KEY, key, "Authorization", basic("bob"));
        HttpResponse<byte[]> anonymous = post("orders/whoami", body, KEY, key);
        assertEquals("alice 1", text(alice));
        assertEquals("bob 1", text(bob), "bob never receives alice's stored response");
        assertEquals("anonymous 1", text(anonymous));
        assertFalse(replayed(bob));
        HttpResponse<byte[]> aliceAgain = post("orders/whoami", body, KEY, key, "Authorization", basic("alice"));
        assertEquals("alice 1", text(aliceAgain));
        assertTrue(replayed(aliceAgain));
        HttpResponse<byte[]> bobAgain = post("orders/whoami", body, KEY, key, "Authorization", basic("bob"));
        assertEquals("bob 1", text(bobAgain));
        assertTrue(replayed(bobAgain));
    }

    private static String basic(String user) {
        String password = user + "-secret";
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sameKeyWithDifferentBodyQueryOrFingerprintHeaderIs422() throws Exception {
        String body = unique();
        String key = unique();
        assertEquals(201, post("orders", body, KEY, key, "X-Currency", "EUR").statusCode());
        assertProblem(post("orders", body + "x", KEY, key, "X-Currency", "EUR"), 422, "key-mismatch");
        assertProblem(post("orders?dry=1", body, KEY, key, "X-Currency", "EUR"), 422, "key-mismatch");
        assertProblem(post("orders", body, KEY, key, "X-Currency", "USD"), 422, "key-mismatch");
        assertTrue(replayed(post("orders", body, KEY, key, "X-Currency", "EUR")));
        assertEquals(1, count("create:" + body));
    }

    /**
     * The shape matrix's HTTP rows: for each body a resource method reads (text, bytes, a stream, a
     * JSON-P object, a record, a bean holding a list, a generic list, form parameters and a form map),
     * the method gets the whole body after the guard read it; the same body under one key replays, a
     * body that differs in one value is a mismatch, and that body under its own key runs.
     */
    @Test
    void everyBodyShapeIsFingerprintedWholeAndReachesTheMethodIntact() throws Exception {
        record Row(String route, String type, String body, String read, String changed, String changedRead) {}
        String line1 = "{\"sku\":\"A\",\"quantity\":1}";
        String line2 = "{\"sku\":\"A\",\"quantity\":2}";
        String lines = "[{\"sku\":\"A\",\"quantity\":1},{\"sku\":\"B\",\"quantity\":2}]";
        String changedLines = "[{\"sku\":\"A\",\"quantity\":1},{\"sku\":\"B\",\"quantity\":3}]";
        String json = "application/json";
        String form = "application/x-www-form-urlencoded";
        List<Row> rows = List.of(
                new Row(
                        "text",
                        "text/plain; charset=UTF-8",
                        "h\u00e9llo \u2713",
                        "h\u00e9llo \u2713",
                        "h\u00e9llo \u2717",
                        "h\u00e9llo \u2717"),
                new Row("bytes", "application/octet-stream", "ab-1", "ab-1", "ab-2", "ab-2"),
                new Row("stream", "application/octet-stream", "cd-1", "cd-1", "cd-2", "cd-2"),
                new Row("json-object", json, line1, "Ax1", line2, "Ax2"),
                new Row("record", json, line1, "Ax1", line2, "Ax2"),
                new Row(
                        "bean",
                        json,
                        "{\"owner\":\"Ann\",\"lines\":" + lines + "}",
                        "Ann:Ax1,Bx2",
                        "{\"owner\":\"Ann\",\"lines\":" + changedLines + "}",
                        "Ann:Ax1,Bx3"),
                new Row("list", json, lines, "Ax1,Bx2", changedLines, "Ax1,Bx3"),
                new Row("form", form, "a=1&b=x%20y", "1,x y", "a=1&b=x%20z", "1,x z"),
                new Row("form-map", form, "a=1&b=x%20y", "1,x y", "a=1&b=x%20z", "1,x z"));
        List<String> failures = new ArrayList<>();
        for (Row row : rows) {
            String key = unique();
            HttpResponse<byte[]> first = postAs(row.route(), row.type(), row.body(), key);
            String got = text(first);
            if (first.statusCode() != 200 || !got.endsWith(" read " + row.read()) || replayed(first)) {
                failures.add(row.route() + ": the first call answered " + first.statusCode() + " " + got);
                continue;
            }
            HttpResponse<byte[]> repeat = postAs(row.route(), row.type(), row.body(), key);
            if (!replayed(repeat) || !got.equals(text(repeat))) {
                failures.add(row.route() + ": the same body under the same key answered " + repeat.statusCode() + " "
                        + text(repeat) + " (replayed: " + replayed(repeat) + ")");
            }
            HttpResponse<byte[]> changed = postAs(row.route(), row.type(), row.changed(), key);
            if (changed.statusCode() != 422) {
                failures.add(row.route() + ": a changed body under the same key answered " + changed.statusCode() + " "
                        + text(changed));
            }
            HttpResponse<byte[]> own = postAs(row.route(), row.type(), row.changed(), unique());
            if (own.statusCode() != 200 || !text(own).endsWith(" read " + row.changedRead()) || replayed(own)) {
                failures.add(row.route() + ": the changed body under its own key answered " + own.statusCode() + " "
                        + text(own));
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    private HttpResponse<byte[]> postAs(String path, String contentType, String body, String key) throws Exception {
        return client.send(
                HttpRequest.newBuilder(base().resolve("api/shapes/" + path))
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                        .header("Content-Type", contentType)
                        .header(KEY, key)
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void theSameKeyOnAnotherOperationIsAnotherRecord() throws Exception {
        String body = unique();
        String key = unique();
        assertEquals("plain 1", text(post("orders/plain", body, KEY, key)));
        assertEquals(201, post("orders", body, KEY, key).statusCode(), "POST /orders is another operation");
        assertEquals(1, count("create:" + body));
    }

    // Rule 6: concurrency.

    @Test
    void fiftyConcurrentPostsWithOneKeyRunOnceAndTheRestGet409OrTheReplay() throws Exception {
        int callers = 50;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            for (int round = 0; round < 3; round++) {
                String body = unique();
                String key = unique();
                Races gate = new Races(callers);
                List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    futures.add(pool.submit(() -> {
                        gate.await();
                        return post("orders/slow", body, KEY, key);
                    }));
                }
                int created = 0;
                int conflicts = 0;
                for (Future<HttpResponse<byte[]>> f : futures) {
                    HttpResponse<byte[]> r = f.get(2, TimeUnit.MINUTES);
                    if (r.statusCode() == 201) {
                        assertEquals("slow 1", text(r));
                        created++;
                    } else {
                        assertProblem(r, 409, "in-progress");
                        long retryAfter = Long.parseLong(
                                r.headers().firstValue("Retry-After").orElseThrow());
                        assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
                        conflicts++;
                    }
                }
                assertEquals(1, count("slow:" + body), "exactly one execution");
                assertTrue(created >= 1);
                assertTrue(conflicts >= 1, "requests really overlapped");
                assertEquals(callers, created + conflicts);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFloodingCallerTakesOnlyItsOwnWaitersAndTheOtherCallerIsServed() throws Exception {
        // idempotency.wait.max-per-caller=2 in this deployment; 16 per key and 32 per operation (defaults).
        // Few requests at once: a server's default pool may have 5 request threads, and each waiter holds one.
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            String aliceBody = unique();
            String bobBody = unique();
            String aliceKey = unique();
            String bobKey = unique();
            String path = "orders/wait-hold?millis=4000";
            Future<HttpResponse<byte[]>> aliceFirst =
                    pool.submit(() -> post(path, aliceBody, KEY, aliceKey, "Authorization", basic("alice")));
            Future<HttpResponse<byte[]>> bobFirst =
                    pool.submit(() -> post(path, bobBody, KEY, bobKey, "Authorization", basic("bob")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (count("wait-hold:" + aliceBody) == 0 || count("wait-hold:" + bobBody) == 0) {
                assertTrue(System.nanoTime() < deadline, "the two first calls did not start within 10 s");
                Thread.sleep(20);
            }
            List<Future<HttpResponse<byte[]>>> flood = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                flood.add(pool.submit(() -> post(path, aliceBody, KEY, aliceKey, "Authorization", basic("alice"))));
            }
            // Alice's duplicates beyond her 2 waiters are refused at once: wait for those 2 before bob's arrive.
            int refused = 0;
            List<String> seen = new ArrayList<>();
            long floodDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (refused < 2 && System.nanoTime() < floodDeadline) {
                refused = 0;
                for (Future<HttpResponse<byte[]>> f : flood) {
                    if (f.isDone() && f.get().statusCode() == 409) {
                        refused++;
                    }
                }
                Thread.sleep(20);
            }
            List<Future<HttpResponse<byte[]>>> bob = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                bob.add(pool.submit(() -> post(path, bobBody, KEY, bobKey, "Authorization", basic("bob"))));
            }
            assertEquals(201, aliceFirst.get(1, TimeUnit.MINUTES).statusCode());
            assertEquals(201, bobFirst.get(1, TimeUnit.MINUTES).statusCode());
            int aliceReplays = 0;
            int aliceRefused = 0;
            for (Future<HttpResponse<byte[]>> f : flood) {
                HttpResponse<byte[]> r = f.get(1, TimeUnit.MINUTES);
                seen.add(r.statusCode() + (replayed(r) ? " replayed" : ""));
                aliceReplays += r.statusCode() == 201 && replayed(r) ? 1 : 0;
                aliceRefused += r.statusCode() == 409 ? 1 : 0;
            }
            assertEquals(2, aliceRefused, "alice's 4 duplicates beyond her 2 waiters, refused: " + seen);
            assertEquals(2, aliceReplays, "alice's 2 waiters replay: " + seen);
            for (Future<HttpResponse<byte[]>> f : bob) {
                HttpResponse<byte[]> r = f.get(1, TimeUnit.MINUTES);
                assertEquals(201, r.statusCode(), () -> "bob's duplicate, beside alice's flood: " + text(r));
                assertTrue(replayed(r), "bob's duplicate waited and replayed");
            }
            assertEquals(1, count("wait-hold:" + aliceBody));
            assertEquals(1, count("wait-hold:" + bobBody));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void waitPolicyMakesConcurrentRepeatsWaitForTheReplay() throws Exception {
        int callers = 10;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            String body = unique();
            String key = unique();
            Races gate = new Races(callers);
            List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    gate.await();
                    return post("orders/wait", body, KEY, key);
                }));
            }
            int replays = 0;
            for (Future<HttpResponse<byte[]>> f : futures) {
                HttpResponse<byte[]> r = f.get(2, TimeUnit.MINUTES);
                assertEquals(201, r.statusCode(), () -> text(r));
                assertEquals("wait 1", text(r));
                replays += replayed(r) ? 1 : 0;
            }
            assertEquals(callers - 1, replays);
            assertEquals(1, count("wait:" + body));
        } finally {
            pool.shutdownNow();
        }
    }

    // Rule 8: the body stays readable (every echo above) and a disconnect does not lose the outcome.

    @Test
    void outcomeIsRecordedWhenTheClientDisconnectedBeforeTheResponse() throws Exception {
        String body = unique();
        String key = unique();
        try (Socket socket = new Socket("127.0.0.1", deployed.getPort())) {
            socket.getOutputStream().write(rawPost("orders/disconnect", key.getBytes(StandardCharsets.US_ASCII), body));
            socket.getOutputStream().flush();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (count("disconnect:" + body) == 0) {
            assertTrue(System.nanoTime() < deadline, "the abandoned request never ran");
            Thread.sleep(50);
        }
        HttpResponse<byte[]> retry;
        do {
            Thread.sleep(200);
            retry = post("orders/disconnect", body, KEY, key);
        } while (retry.statusCode() == 409 && System.nanoTime() < deadline);
        assertEquals(201, retry.statusCode(), text(retry));
        assertEquals("disconnect 1", text(retry));
        assertTrue(replayed(retry), "the retry got the stored outcome");
        assertEquals(1, count("disconnect:" + body));
    }

    // Rule 10: store unreachable.

    @Test
    void unreachableStoreGives503WithRetryAfterAndTheResourceDoesNotRun() throws Exception {
        String body = unique();
        String key = unique();
        setStoreFailing(true);
        try {
            HttpResponse<byte[]> r = post("orders/plain", body, KEY, key);
            assertProblem(r, 503, "store-unavailable");
            assertEquals("5", r.headers().firstValue("Retry-After").orElse(""));
            assertEquals(0, count("plain:" + body));
        } finally {
            setStoreFailing(false);
        }
        assertEquals("plain 1", text(post("orders/plain", body, KEY, key)));
    }

    private void setStoreFailing(boolean failing) throws Exception {
        HttpResponse<byte[]> r = send("PUT", "control/store-failing", Boolean.toString(failing));
        assertEquals(204, r.statusCode());
    }

    // Rules 3 and 9 under fuzzing: never a 500.

    @Test
    void fuzzedKeyHeadersGetOnly400OrNormalOutcomes() throws Exception {
        Random random = new Random(20251031);
        Map<Integer, Integer> statuses = new TreeMap<>();
        int sent = 0;
        for (int i = 0; i < 800; i++) {
            char[] chars = new char[random.nextInt(i % 10 == 0 ? 400 : 40)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = random.nextInt(10) == 0
                        ? "\"\\,; \t=".charAt(random.nextInt(7))
                        : (char) (0x20 + random.nextInt(0x5F));
            }
            String value = new String(chars);
            HttpResponse<byte[]> r;
            try {
                r = post("orders/fuzz", "x", KEY, value);
            } catch (IllegalArgumentException e) {
                continue; // the client refused to send this value (e.g. leading space rules); not a request
            }
            sent++;
            int status = r.statusCode();
            statuses.merge(status, 1, Integer::sum);
            assertTrue(status == 201 || status == 400, "status " + status + " for a fuzzed key: " + text(r));
            if (status == 400) {
                assertProblem(r, 400, "key-invalid");
            }
        }
        for (int i = 0; i < 400; i++) {
            byte[] value = new byte[random.nextInt(300)];
            for (int j = 0; j < value.length; j++) {
                byte b;
                do {
                    b = (byte) random.nextInt(256);
                } while (b == '\r' || b == '\n');
                value[j] = b;
            }
            int status = rawStatus(rawPost("orders/fuzz", value, "x"));
            sent++;
            statuses.merge(status, 1, Integer::sum);
            assertTrue(status == 201 || status == 400 || status == -1, "status " + status + " for raw header bytes");
        }
        assertTrue(sent >= 1000, "sent " + sent);
        assertTrue(statuses.getOrDefault(201, 0) > 100 && statuses.getOrDefault(400, 0) > 100, statuses::toString);
        System.out.println("fuzz statuses (-1 = connection closed without a response): " + statuses);
    }

    private byte[] rawPost(String path, byte[] keyValue, String body) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        String head = "POST " + base().getPath() + "api/" + path + " HTTP/1.1\r\n" + "Host: 127.0.0.1:"
                + deployed.getPort() + "\r\n" + "Content-Type: text/plain\r\n" + "Content-Length: " + body.length()
                + "\r\n" + "Connection: close\r\n" + KEY + ": ";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(keyValue);
        out.write(("\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** Sends raw bytes; returns the response status, or -1 when the server closed without one. */
    private int rawStatus(byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", deployed.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] line = new byte[12];
            int n = in.readNBytes(line, 0, line.length);
            if (n < 12) {
                return -1;
            }
            String status = new String(line, StandardCharsets.US_ASCII);
            assertTrue(status.startsWith("HTTP/1.1 "), status);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @Test
    void firstResponsesAreNotMarkedAsReplays() throws Exception {
        HttpResponse<byte[]> r = post("orders/plain", unique(), KEY, unique());
        assertEquals(200, r.statusCode());
        assertNotEquals("true", r.headers().firstValue(REPLAYED).orElse(""));
    }
}
