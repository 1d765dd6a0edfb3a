package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.ConfiguredWeld;
import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.cdi.IdempotencyExtension;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.Extension;
import java.util.Map;
import java.util.function.Consumer;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.manager.EmbeddedCacheManager;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The CDI wiring of the Infinispan store in Weld SE: {@code idempotency.store=infinispan} selects it,
 * the application's own {@link EmbeddedCacheManager} bean is used when there is one, and nothing is
 * registered when another store is configured.
 */
class InfinispanStoreCdiTest {

    private static void withContainer(Map<String, String> config, Class<?>[] beans, Consumer<WeldContainer> body)
            throws Exception {
        ConfiguredWeld.run(config, new InfinispanStoreExtension(), beans, body);
    }

    @Test
    void storeInfinispanSelectsTheInfinispanStoreOnALocalCache() throws Exception {
        InfinispanLocalStore[] seen = new InfinispanLocalStore[1];
        withContainer(Map.of("idempotency.store", "infinispan"), new Class<?>[0], c -> {
            IdempotencyStore store = c.select(IdempotencyStore.class, NamedLiteral.of("infinispan"))
                    .get();
            assertThat(store).isInstanceOf(InfinispanLocalStore.class);
            assertThat(c.select(IdempotencyRuntime.class).get().engine().store())
                    .isSameAs(store);
            seen[0] = (InfinispanLocalStore) store;
            assertThat(seen[0].cache().getCacheManager().getStatus().allowInvocations())
                    .isTrue();
        });
        // The manager the store started is stopped with the container.
        assertThat(seen[0].cache().getCacheManager().getStatus().allowInvocations())
                .isFalse();
    }

    @Test
    void theApplicationsOwnCacheManagerIsUsedAndLeftRunning() throws Exception {
        OwnManager.manager = null;
        withContainer(Map.of("idempotency.store", "infinispan"), new Class<?>[] {OwnManager.class}, c -> {
            InfinispanLocalStore store =
                    (InfinispanLocalStore) c.select(IdempotencyStore.class, NamedLiteral.of("infinispan"))
                            .get();
            assertThat(store.cache().getCacheManager()).isSameAs(OwnManager.manager);
            assertThat(store.claim("k".repeat(64), "o", "fp", java.time.Duration.ofMinutes(1))
                            .claimed())
                    .isTrue();
        });
        // Stopped by the application's disposer, not twice by the store.
        assertThat(OwnManager.stoppedByOwner).isTrue();
    }

    @Test
    void anotherStoreNameRegistersNothingAndKeepsTheMemoryStore() throws Exception {
        withContainer(Map.of(), new Class<?>[0], c -> {
            assertThat(c.select(IdempotencyStore.class, NamedLiteral.of("infinispan"))
                            .isUnsatisfied())
                    .isTrue();
            assertThat(c.select(IdempotencyRuntime.class).get().engine().store())
                    .isInstanceOf(MemoryIdempotencyStore.class);
        });
    }

    @Test
    void aMissingConfigFileFailsTheDeploymentNamingTheKey() {
        assertThatThrownBy(() -> withContainer(
                        Map.of("idempotency.store", "infinispan", InfinispanStoreSettings.CONFIG, "no-such-file.xml"),
                        new Class<?>[0],
                        c -> {}))
                .hasStackTraceContaining(InfinispanStoreSettings.CONFIG)
                .hasStackTraceContaining("no-such-file.xml");
    }

    /** The per-method key of {@link BadModeCharges#charge}'s transaction. */
    private static final String MODE_KEY = BadModeCharges.class.getName() + "/charge/Idempotent/transaction";

    @Test
    void anInvalidTransactionValueFailsTheDeploymentNotTheFirstCall() {
        assertThatThrownBy(() -> ConfiguredWeld.run(
                        Map.of("idempotency.store", "infinispan", MODE_KEY, "sometimes"),
                        new Extension[] {new InfinispanStoreExtension(), new IdempotencyExtension()},
                        new Class<?>[] {BadModeCharges.class},
                        c -> {}))
                .as("the operation is planned when the application starts")
                .hasStackTraceContaining(MODE_KEY)
                .hasStackTraceContaining("'sometimes'");
    }

    @Test
    void theJoinedModeOnALocalCacheIsRefusedByTheDeploymentCheck() throws Exception {
        ConfiguredWeld.run(
                Map.of("idempotency.store", "infinispan", MODE_KEY, "joined"),
                new Extension[] {new InfinispanStoreExtension(), new IdempotencyExtension()},
                new Class<?>[] {BadModeCharges.class},
                c -> assertThatThrownBy(() -> c.select(IdempotencyRuntime.class)
                                .get()
                                .engine()
                                .checkTransactions(Map.of()))
                        .isInstanceOf(IdempotencyConfigurationException.class)
                        .hasMessageContaining("[bad-mode]")
                        .hasMessageContaining("InfinispanLocalStore")
                        .hasMessageContaining("cannot write in it"));
    }

    @Test
    void aSeparateOperationOnALocalCachePassesTheDeploymentCheck() throws Exception {
        ConfiguredWeld.run(
                Map.of("idempotency.store", "infinispan", MODE_KEY, "separate"),
                new Extension[] {new InfinispanStoreExtension(), new IdempotencyExtension()},
                new Class<?>[] {BadModeCharges.class},
                c -> {
                    var engine = c.select(IdempotencyRuntime.class).get().engine();
                    engine.checkTransactions(Map.of());
                    assertThat(engine.store()).isInstanceOf(InfinispanLocalStore.class);
                    assertThat(engine.operations()).containsEntry("bad-mode", dev.idempotency.Participation.SEPARATE);
                });
    }

    /** A bean with one guarded operation, {@code bad-mode}. */
    @ApplicationScoped
    static class BadModeCharges {
        @Idempotent(name = "bad-mode")
        public String charge(@IdempotencyKey String id) {
            return "charged " + id;
        }
    }

    /** An application that produces its own cache manager. */
    @ApplicationScoped
    static class OwnManager {
        static EmbeddedCacheManager manager;
        static boolean stoppedByOwner;

        @Produces
        @ApplicationScoped
        EmbeddedCacheManager manager() {
            DefaultCacheManager m = new DefaultCacheManager(
                    new GlobalConfigurationBuilder().nonClusteredDefault().build());
            m.defineConfiguration("idempotency", new ConfigurationBuilder().build());
            manager = m;
            stoppedByOwner = false;
            return m;
        }

        void close(@Disposes EmbeddedCacheManager m) {
            m.stop();
            stoppedByOwner = true;
        }
    }
}
