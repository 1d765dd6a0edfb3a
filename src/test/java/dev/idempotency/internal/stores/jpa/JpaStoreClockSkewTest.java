package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one table, the second with its clock 25 hours ahead: it neither purges nor takes over
 * the first node's records, a COMPLETED one within its 24-hour retention or a running claim.
 */
@Tag("services")
class JpaStoreClockSkewTest {

    private static final String SCHEMA = "idem_jpa_faults";

    @Test
    void postgresql() {
        check(() -> TestDatabases.postgres(SCHEMA));
    }

    @Test
    void mariadb() {
        check(() -> TestDatabases.mariadb(SCHEMA));
    }

    @Test
    void h2() {
        check(() -> TestDatabases.h2("clock-skew"));
    }

    private static void check(Supplier<HikariDataSource> db) {
        try (HikariDataSource ds = db.get()) {
            JpaIdempotencyStore honest = TestDatabases.store(ds, Clock.systemUTC(), Map.of());
            JpaIdempotencyStore ahead =
                    TestDatabases.store(ds, Clock.offset(Clock.systemUTC(), Duration.ofHours(25)), Map.of());
            String completed = Hashing.sha256Hex("skew-completed-" + System.nanoTime());
            String running = Hashing.sha256Hex("skew-running-" + System.nanoTime());
            assertThat(honest.claim(completed, "first", "fp", Duration.ofMinutes(1))
                            .claimed())
                    .isTrue();
            assertThat(honest.complete(completed, "first", new byte[] {1}, Duration.ofHours(24)))
                    .isTrue();
            assertThat(honest.claim(running, "first", "fp", Duration.ofMinutes(1))
                            .claimed())
                    .isTrue();

            assertThat(ahead.purgeExpired(1000))
                    .as("records purged by the node 25 h ahead")
                    .isZero();
            assertThat(honest.read(completed)).as("the completed record").isPresent();
            assertThat(honest.read(running)).as("the running claim").isPresent();

            ClaimResult repeat = ahead.claim(completed, "second", "fp", Duration.ofMinutes(1));
            assertThat(repeat.claimed())
                    .as("the repeat of the completed key is claimed")
                    .isFalse();
            assertThat(repeat.record().status()).isEqualTo(RecordStatus.COMPLETED);
            ClaimResult duplicate = ahead.claim(running, "second", "fp", Duration.ofMinutes(1));
            assertThat(duplicate.claimed()).as("the running key is taken over").isFalse();
            assertThat(honest.complete(running, "first", new byte[] {2}, Duration.ofHours(24)))
                    .as("the first node still completes its claim")
                    .isTrue();
        }
    }
}
