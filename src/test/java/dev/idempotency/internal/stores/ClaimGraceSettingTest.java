package dev.idempotency.internal.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.stores.jpa.JpaStoreSettings;
import dev.idempotency.internal.stores.memory.MemoryStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.spi.ConfigLookup;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@code claim-grace} means the same on every store that reads it: a positive duration, one hour by
 * default. Zero would let a late owner's outcome be lost (the claim expires with its lease, and a retry
 * runs again), so every store refuses it at deployment, naming its key.
 */
class ClaimGraceSettingTest {

    private record Store(String key, Function<ConfigLookup, Duration> read) {}

    private static final Store[] STORES = {
        new Store(JpaStoreSettings.CLAIM_GRACE, s -> JpaStoreSettings.from(s).claimGrace()),
        new Store(
                RedisStoreSettings.CLAIM_GRACE, s -> RedisStoreSettings.from(s).claimGrace()),
        new Store(MemoryStoreSettings.CLAIM_GRACE, s -> MemoryStoreSettings.from(s)
                .claimGrace()),
    };

    @Test
    void oneHourByDefaultAndAPositiveDurationAsSet() {
        for (Store store : STORES) {
            assertThat(store.read().apply(ConfigLookup.none())).as(store.key()).isEqualTo(Duration.ofHours(1));
            assertThat(store.read().apply(ConfigLookup.of(Map.of(store.key(), "PT5M"))))
                    .as(store.key())
                    .isEqualTo(Duration.ofMinutes(5));
        }
    }

    @Test
    void zeroNegativeAndUnparsableValuesAreRefusedNamingTheKey() {
        for (Store store : STORES) {
            for (String bad : new String[] {"PT0S", "-PT1S", "1h"}) {
                assertThatThrownBy(() -> store.read().apply(ConfigLookup.of(Map.of(store.key(), bad))))
                        .as(store.key() + "=" + bad)
                        .isInstanceOf(IdempotencyConfigurationException.class)
                        .hasMessageContaining(store.key());
            }
        }
    }
}
