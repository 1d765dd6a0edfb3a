package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.lock.ClusterLocks;
import dev.idempotency.messaging.MessageDeduplicator;
import dev.idempotency.messaging.MessageSettings;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.tokens.OneTimeTokens;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A database outage is a store-unavailable outcome (HTTP 503) on every path, never a raw persistence
 * exception (500): the store's own calls, and the toolkit that calls the store directly (one-time
 * tokens, whose filter answers 503 only for this exception, cluster locks, message deduplication).
 */
@Tag("services")
class JpaStoreUnavailableTest {

    @Test
    void postgresqlOutageIsStoreUnavailableEverywhere() {
        check(() -> TestDatabases.postgres(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void mariadbOutageIsStoreUnavailableEverywhere() {
        check(() -> TestDatabases.mariadb(TestDatabases.TEST_SCHEMA));
    }

    @Test
    void h2OutageIsStoreUnavailableEverywhere() {
        check(() -> TestDatabases.h2("unavailable"));
    }

    private static void check(Supplier<HikariDataSource> db) {
        try (HikariDataSource ds = db.get()) {
            SwitchableDataSource switchable = new SwitchableDataSource(ds);
            MutableClock clock = new MutableClock();
            // Complete and release retry a lost connection for the settle patience, then fail as here.
            JpaIdempotencyStore store =
                    TestDatabases.store(switchable, clock, Map.of(JpaStoreSettings.SETTLE_PATIENCE, "PT0.5S"));
            try {
                String k = Hashing.sha256Hex("outage-" + System.nanoTime());
                store.claim(k, "owner", "fp", Duration.ofMinutes(1));
                switchable.down();

                assertUnavailable(() -> store.claim(k, "other", "fp", Duration.ofMinutes(1)));
                assertUnavailable(() -> store.read(k));
                assertUnavailable(() -> store.complete(k, "owner", new byte[] {1}, Duration.ofHours(1)));
                assertUnavailable(() -> store.release(k, "owner"));
                assertUnavailable(() -> store.purgeExpired(10));

                assertUnavailable(() -> new OneTimeTokens(store, clock).issue("alice", Duration.ofMinutes(5)));
                assertUnavailable(
                        () -> new ClusterLocks(store).tryLock("nightly", Duration.ofMinutes(1), Duration.ZERO));
                assertUnavailable(() -> {
                    try {
                        return new MessageDeduplicator(
                                        store,
                                        new MessageSettings(3, Duration.ofDays(1), Duration.ofMinutes(1)),
                                        failed -> {})
                                .handle("orders", "message-1", () -> {});
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
            } finally {
                store.close();
            }
        }
    }

    private static void assertUnavailable(Supplier<?> call) {
        assertThatThrownBy(call::get)
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("Connection refused");
    }
}
