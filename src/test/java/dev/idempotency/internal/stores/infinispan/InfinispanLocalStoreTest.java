package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.RecordStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.infinispan.configuration.cache.CacheMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store contract on the default configuration: a local cache, real lifespans, real sleeps. */
class InfinispanLocalStoreTest extends IdempotencyStoreContract {

    private static InfinispanLocalStore store;

    @BeforeAll
    static void start() {
        // A grace well past the contract's PAST_SHORT, so late owners can complete.
        store = (InfinispanLocalStore) InfinispanStores.start(
                ConfigLookup.of(Map.of(InfinispanStoreSettings.CLAIM_GRACE, "PT30S")),
                new Properties(),
                InfinispanLocalStoreTest.class.getClassLoader());
    }

    @AfterAll
    static void stop() {
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void theClusterLimitsOnALocalCacheFailTheDeploymentNamingTheKey() {
        for (String key : java.util.List.of(InfinispanStoreSettings.MAX_ENTRIES, InfinispanStoreSettings.MAX_BYTES)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> InfinispanStores.start(
                            ConfigLookup.of(Map.of(key, "1000")),
                            new Properties(),
                            InfinispanLocalStoreTest.class.getClassLoader()))
                    .isInstanceOf(dev.idempotency.IdempotencyConfigurationException.class)
                    .hasMessageContaining("'" + key + "'")
                    .hasMessageContaining("Remove the key");
        }
    }

    @Test
    void theDefaultIsALocalCacheNamedIdempotency() {
        assertThat(store.cache().getName()).isEqualTo(InfinispanStoreSettings.DEFAULT_CACHE);
        assertThat(store.cache().getCacheConfiguration().clustering().cacheMode())
                .isEqualTo(CacheMode.LOCAL);
    }

    @Test
    void anInProgressEntryOutlivesItsLeaseByTheGraceAndACompletedOneLivesItsTtl() {
        String k = key();
        store.claim(k, "o", "fp", Duration.ofSeconds(10));
        long lifespan = store.cache().getAdvancedCache().getCacheEntry(k).getLifespan();
        assertThat(lifespan).isEqualTo(Duration.ofSeconds(40).toMillis());

        store.complete(k, "o", new byte[] {1}, Duration.ofSeconds(5));
        assertThat(store.cache().getAdvancedCache().getCacheEntry(k).getLifespan())
                .isEqualTo(5000);
        assertThat(store.read(k).orElseThrow().status()).isEqualTo(RecordStatus.COMPLETED);
    }

    @Test
    void anEntryWhoseGraceEndedIsGoneAndItsLateOwnerCannotComplete() throws Exception {
        InfinispanLocalStore shortGrace =
                new InfinispanLocalStore(store.cache(), java.time.Clock.systemUTC(), Duration.ofMillis(100), null);
        String k = key();
        shortGrace.claim(k, "late", "fp", SHORT);
        elapse(PAST_SHORT);
        assertThat(store.cache().get(k)).isNull();
        assertThat(shortGrace.complete(k, "late", new byte[] {1}, LONG)).isFalse();
    }
}
