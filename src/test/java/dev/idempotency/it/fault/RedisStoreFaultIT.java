package dev.idempotency.it.fault;

import dev.idempotency.TestServices;
import dev.idempotency.internal.stores.TcpProxy;
import dev.idempotency.internal.stores.redis.RedisServers;
import java.io.File;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.Test;

/**
 * {@link StoreFaultScenarios} on the Redis store (Jedis bundled in the WAR, as the README says), its
 * connections to a Redis server of the test's own through the proxy, a server that writes every command to
 * its append-only file before answering ({@code appendfsync always}); and that server restarted.
 */
class RedisStoreFaultIT extends StoreFaultScenarios {

    private static final int REDIS_PORT = TestServices.port(7717);
    private static final int PROXY_PORT = TestServices.port(7718);
    /** Every write on disk before Redis answers it, so that a restart keeps every claim. */
    private static final String[] DURABLE = {"--appendonly", "yes", "--appendfsync", "always"};

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException, SQLException {
        RedisServers.start(REDIS_PORT, DURABLE);
        proxy = new TcpProxy(PROXY_PORT, REDIS_PORT);
        File[] jedis = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("redis.clients:jedis")
                .withTransitivity()
                .asFile();
        return deployment(
                        "fault-redis-it.war",
                        "idempotency.store=redis\n"
                                + "idempotency.redis.uri=redis://127.0.0.1:" + PROXY_PORT + "\n"
                                + "idempotency.redis.timeout=PT0.5S\n"
                                + "idempotency.redis.connect-timeout=PT0.5S\n",
                        Map.of())
                .addAsLibraries(jedis);
    }

    /**
     * Redis killed ({@code kill -9}) after the business commit and before the outcome is stored, and
     * started again on its append-only file 1 s later, for 50 keys: every request answered 201 once
     * Redis is back, every retry replays, one effect row per key.
     */
    @Test
    void aRedisRestartAfterTheBusinessCommitRunsNoKeyTwice() throws Exception {
        assertEveryRetryReplays(settleThrough("restart", 2, () -> {
            RedisServers.stop(REDIS_PORT);
            Thread.sleep(1_000);
            RedisServers.start(REDIS_PORT, DURABLE);
        }));
    }
}
