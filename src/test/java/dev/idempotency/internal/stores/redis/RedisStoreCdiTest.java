package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ConfiguredWeld;
import dev.idempotency.TestServices;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.inject.literal.NamedLiteral;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CDI wiring of the Redis store in Weld SE: {@code idempotency.store=redis} selects it and
 * connects it at deployment, an unreachable Redis or a bad key fails the deployment naming the key,
 * and the client is closed with the container.
 */
@Tag("services")
class RedisStoreCdiTest {

    private static void withContainer(Map<String, String> config, Consumer<WeldContainer> body) throws Exception {
        ConfiguredWeld.run(config, new RedisStoreExtension(), new Class<?>[0], body);
    }

    @Test
    void storeRedisSelectsTheRedisStoreAndClosesItsClientWithTheDeployment() throws Exception {
        RedisServers.requireMachineRedis();
        RedisIdempotencyStore[] seen = new RedisIdempotencyStore[1];
        withContainer(Map.of("idempotency.store", "redis", RedisStoreSettings.KEY_PREFIX, "cdi-test:"), c -> {
            IdempotencyStore store =
                    c.select(IdempotencyStore.class, NamedLiteral.of("redis")).get();
            assertThat(store).isInstanceOf(RedisIdempotencyStore.class);
            assertThat(c.select(IdempotencyRuntime.class).get().engine().store())
                    .isSameAs(store);
            seen[0] = (RedisIdempotencyStore) store;
            String key = "c".repeat(63) + System.nanoTime() % 10;
            assertThat(store.claim(key, "o-" + System.nanoTime(), "fp", Duration.ofSeconds(5))
                            .claimed())
                    .isTrue();
            assertThat(store.release(key, "nobody")).isFalse();
        });
        assertThatThrownBy(() -> seen[0].client().ping())
                .as("the client is closed with the container")
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void anUnreachableRedisFailsTheDeploymentNamingTheKey() {
        int closed = TestServices.port(7709);
        assertThatThrownBy(() -> withContainer(
                        Map.of(
                                "idempotency.store",
                                "redis",
                                RedisStoreSettings.URI,
                                "redis://127.0.0.1:" + closed,
                                RedisStoreSettings.CONNECT_TIMEOUT,
                                "PT0.5S"),
                        c -> {}))
                .hasStackTraceContaining(RedisStoreSettings.URI)
                .hasStackTraceContaining("127.0.0.1:" + closed);
    }

    @Test
    void aBadKeyFailsTheDeploymentNamingIt() {
        assertThatThrownBy(() -> withContainer(
                        Map.of(
                                "idempotency.store",
                                "redis",
                                RedisStoreSettings.CLUSTER_NODES,
                                "127.0.0.1:7000",
                                RedisStoreSettings.SENTINEL_MASTER,
                                "mymaster"),
                        c -> {}))
                .hasStackTraceContaining(RedisStoreSettings.CLUSTER_NODES)
                .hasStackTraceContaining(RedisStoreSettings.SENTINEL_MASTER);
        assertThatThrownBy(() -> withContainer(
                        Map.of(
                                "idempotency.store",
                                "redis",
                                RedisStoreSettings.URI,
                                "redis://user:secret@127.0.0.1:6379"),
                        c -> {}))
                .hasStackTraceContaining(RedisStoreSettings.PASSWORD)
                .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("secret"));
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
