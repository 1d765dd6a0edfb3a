package dev.idempotency.it.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.TestServices;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.stores.redis.RedisIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisServers;
import dev.idempotency.it.Deployments;
import dev.idempotency.it.app.ExecutionCounter;
import dev.idempotency.it.app.PaymentEjb;
import dev.idempotency.it.app.Receipt;
import dev.idempotency.it.app.ShippingBean;
import dev.idempotency.it.redis.app.ChargesResource;
import dev.idempotency.it.redis.app.RedisApp;
import dev.idempotency.spi.Races;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Redis store in a WAR that bundles Jedis as the README says, on a Redis server that this test
 * starts from the {@code redis-server} binary (127.0.0.1, port {@link #PORT}): the CDI and EJB guards
 * run once per key under concurrent callers, the HTTP guard replays, and when Redis is killed mid-test
 * a new request gets 503 with {@code Retry-After} and does not run; once Redis is back, service
 * resumes without a redeployment.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisStoreIT {

    private static final int PORT = TestServices.port(7708);
    private static final int CALLERS = 32;

    @Deployment
    static WebArchive deployment() {
        RedisServers.start(PORT); // before the deployment, which connects at startup
        File[] jedis = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("redis.clients:jedis")
                .withTransitivity()
                .asFile();
        return Deployments.war("redis-store-it.war")
                .addAsLibraries(jedis)
                .addClasses(
                        ExecutionCounter.class,
                        PaymentEjb.class,
                        Receipt.class,
                        ShippingBean.class,
                        Races.class,
                        RedisApp.class,
                        ChargesResource.class,
                        RedisServers.class)
                .addAsResource(
                        new StringAsset("idempotency.store=redis\n"
                                // CALLERS WAIT callers race for one key: every one of them may wait.
                                + "idempotency.wait.max-per-key=" + CALLERS + "\n"
                                + "idempotency.wait.max-joined=" + CALLERS + "\n"
                                + "idempotency.redis.uri=redis://127.0.0.1:" + PORT + "\n"
                                + "idempotency.redis.timeout=PT0.5S\n"
                                + "idempotency.redis.connect-timeout=PT0.5S\n"),
                        "META-INF/microprofile-config.properties");
    }

    @Inject
    IdempotencyRuntime runtime;

    @Inject
    PaymentEjb payments;

    @Inject
    ShippingBean shipping;

    @Inject
    ExecutionCounter counter;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @ArquillianResource
    URL deployed;

    @Test
    @Order(1)
    void theConfiguredStoreIsRedis() {
        String store = runtime.engine().store().toString();
        assertTrue(store.startsWith(RedisIdempotencyStore.class.getName() + "@"), store);
    }

    @Test
    @Order(2)
    void anEjbAndACdiBeanRunOncePerKeyOnTheRedisStore() throws Exception {
        String orderId = "redis-order-" + System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS, threads);
        try {
            for (Object o : Races.race(pool, CALLERS, () -> payments.charge(orderId, 700))) {
                assertEquals(new Receipt(orderId, 1, 700), o, "every waiting caller gets the first receipt");
            }
            assertEquals(1, counter.count("ejb:" + orderId));

            String shipmentId = "redis-shipment-" + System.nanoTime();
            Races.race(pool, CALLERS, (Callable<Object>) () -> shipping.ship(shipmentId, 300));
            assertEquals(new Receipt(shipmentId, 1, 300), shipping.ship(shipmentId, 300), "replayed");
            assertEquals(1, counter.count("cdi:" + shipmentId));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(3)
    @RunAsClient
    void aRepeatedRequestIsReplayedFromRedis() throws Exception {
        String body = "c-" + System.nanoTime();
        HttpResponse<String> first = charge("k-" + body, body);
        assertEquals(201, first.statusCode(), first.body());
        HttpResponse<String> again = charge("k-" + body, body);
        assertEquals(201, again.statusCode(), again.body());
        assertEquals(first.body(), again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(null));
        assertEquals("1", runs(body));
    }

    @Test
    @Order(4)
    @RunAsClient
    void whileRedisIsDownARequestGets503AndDoesNotRunAndServiceResumesWhenItIsBack() throws Exception {
        RedisServers.stop(PORT); // kill -9
        String during = "down-" + System.nanoTime();
        HttpResponse<String> refused = charge("k-" + during, during);
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(
                refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                refused.headers().map().toString());
        assertNotNull(refused.headers().firstValue("Retry-After").orElse(null), "Retry-After");
        assertEquals("0", runs(during), "a request refused for want of a store must not run");

        RedisServers.start(PORT);
        String after = "up-" + System.nanoTime();
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        RedisServers.await(Duration.ofSeconds(30), "a 201 after Redis came back (last answer: " + last + ")", () -> {
            try {
                last.set(charge("k-" + after, after));
                return last.get().statusCode() == 201;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals("1", runs(after));
        HttpResponse<String> retried = charge("k-" + during, during);
        assertEquals(201, retried.statusCode(), "the refused request runs when retried: " + retried.body());
        assertEquals("1", runs(during));
    }

    private URI base() {
        return Deployments.loopback(deployed);
    }

    private HttpResponse<String> charge(String key, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base().resolve("api/charges"))
                .timeout(Duration.ofSeconds(20))
                .header("Idempotency-Key", key)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return Deployments.httpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private String runs(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base().resolve("api/charges/runs/" + body))
                .timeout(Duration.ofSeconds(20))
                .GET()
                .build();
        return Deployments.httpClient()
                .send(request, HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
