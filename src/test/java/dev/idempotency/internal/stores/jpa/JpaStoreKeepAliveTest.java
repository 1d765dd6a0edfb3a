package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.core.KeepAlive;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.RecordStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The keep-alive on PostgreSQL: a row lock held on one claim (another transaction's {@code SELECT ...
 * FOR UPDATE}) makes that claim's renewal wait, and must not delay the renewal of any other claim of
 * the node, or their leases lapse and duplicates run while their calls still run.
 */
@Tag("services")
class JpaStoreKeepAliveTest {

    private static final Duration LEASE = Duration.ofMillis(1_500);

    /** Longer than two of the other claims' leases, shorter than the lock timeout (5 s by default). */
    private static final long LOCK_MILLIS = 4_000;

    @Test
    void aRowLockOnOneClaimLetsNoOtherClaimsLeaseLapse() throws Exception {
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        try (HikariDataSource ds = TestDatabases.postgres(TestDatabases.TEST_SCHEMA)) {
            JpaIdempotencyStore store = TestDatabases.store(ds, Clock.systemUTC(), Map.of());
            KeepAlive keepAlive = KeepAlive.on(scheduler, KeepAlive.DEFAULT_MAX_DURATION);
            try {
                String locked = key("locked");
                List<String> others = List.of(key("a"), key("b"), key("c"));
                List<String> all = new ArrayList<>(others);
                all.add(locked);
                for (String k : all) {
                    assertThat(store.claim(k, owner(k), "fp", LEASE).claimed())
                            .as("the first claim of %s", k)
                            .isTrue();
                    keepAlive.track(new KeepAlive.Claim(k, owner(k), LEASE, "op", k.substring(0, 8)), store);
                }
                List<String> takenOver = new ArrayList<>();
                int refused = 0;
                try (Connection blocker = ds.getConnection()) {
                    blocker.setAutoCommit(false);
                    lock(blocker, locked);
                    long lockedAt = System.nanoTime();
                    try {
                        while (System.nanoTime() - lockedAt < LOCK_MILLIS * 1_000_000) {
                            for (String k : others) {
                                ClaimResult r = store.claim(k, "competitor", "fp", LEASE);
                                if (r.claimed()) {
                                    takenOver.add(k.substring(0, 8) + " at "
                                            + (System.nanoTime() - lockedAt) / 1_000_000 + " ms");
                                } else if (r.record().status() == RecordStatus.IN_PROGRESS) {
                                    refused++;
                                }
                            }
                            Thread.sleep(100);
                        }
                    } finally {
                        blocker.rollback();
                    }
                }
                assertThat(takenOver)
                        .as(
                                "claims taken over by a competitor while another claim's row was locked for %d ms"
                                        + " (lease %d ms); %d competing claims were refused as in progress",
                                LOCK_MILLIS, LEASE.toMillis(), refused)
                        .isEmpty();
                assertThat(refused)
                        .as("competing claims refused as in progress")
                        .isGreaterThanOrEqualTo(others.size() * 10);
                for (String k : all) {
                    assertThat(store.release(k, owner(k)))
                            .as("the first owner of %s still holds it", k)
                            .isTrue();
                }
            } finally {
                keepAlive.stop();
                store.close();
            }
        } finally {
            scheduler.shutdownNow();
        }
    }

    private static String key(String name) {
        return Hashing.sha256Hex("keep-alive-" + name + "-" + System.nanoTime());
    }

    private static String owner(String key) {
        return "owner-" + key.substring(0, 8);
    }

    private static void lock(Connection blocker, String key) throws Exception {
        try (PreparedStatement ps =
                blocker.prepareStatement("SELECT idem_key FROM idempotency_record WHERE idem_key = ? FOR UPDATE")) {
            ps.setString(1, key);
            ps.executeQuery().close();
        }
    }
}
