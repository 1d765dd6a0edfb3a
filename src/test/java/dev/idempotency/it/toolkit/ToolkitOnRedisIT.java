package dev.idempotency.it.toolkit;

import dev.idempotency.internal.stores.redis.RedisServers;
import java.io.File;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;

/** {@link ToolkitScenarios} on the Redis store, on the machine's Redis with a key prefix of this run. */
class ToolkitOnRedisIT extends ToolkitScenarios {

    @Deployment(testable = false)
    static WebArchive deployment() {
        RedisServers.requireMachineRedis();
        File[] jedis = Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("redis.clients:jedis")
                .withTransitivity()
                .asFile();
        String run = UUID.randomUUID().toString();
        return deployment(
                        "toolkit-redis-it.war",
                        "idempotency.store=redis",
                        "idempotency.redis.uri=redis://127.0.0.1:" + RedisServers.MACHINE_PORT,
                        "idempotency.redis.key-prefix=toolkit-it-" + run + ":",
                        "idempotency.application=toolkit-it-" + run)
                .addAsLibraries(jedis);
    }
}
