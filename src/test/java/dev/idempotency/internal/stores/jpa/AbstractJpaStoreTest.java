package dev.idempotency.internal.stores.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The store contract on the JPA store (Java SE, separate mode) with a hand-moved
 * clock. The race runs 16 threads over 200 keys: every key is claimed 16 times at one instant, which on
 * a database is 3,200 really concurrent claims per run.
 */
abstract class AbstractJpaStoreTest extends IdempotencyStoreContract {

    /** The clock every store of a test class shares; it only moves forward. */
    static final MutableClock CLOCK = new MutableClock();

    /** The store of the concrete test class. */
    abstract JpaIdempotencyStore jpaStore();

    @Override
    protected IdempotencyStore store() {
        return jpaStore();
    }

    @Override
    protected void elapse(Duration d) {
        CLOCK.advance(d);
    }

    /**
     * The fence of complete and release is a WHERE clause in SQL, so it must compare owners as {@link
     * String#equals} does ({@code RecordLifecycle.isOwnedBy}), whatever the column's collation: on
     * MariaDB/MySQL the default one ignores letter case and trailing spaces.
     */
    @Test
    void theOwnerFenceComparesExactly() {
        String k = Hashing.sha256Hex("exact-owner-" + System.nanoTime());
        assertThat(jpaStore().claim(k, "Owner-1", "fp", Duration.ofMinutes(1)).claimed())
                .isTrue();
        byte[] outcome = "x".getBytes(StandardCharsets.UTF_8);
        assertThat(jpaStore().complete(k, "owner-1", outcome, Duration.ofHours(1)))
                .isFalse();
        assertThat(jpaStore().complete(k, "Owner-1 ", outcome, Duration.ofHours(1)))
                .isFalse();
        assertThat(jpaStore().release(k, "OWNER-1")).isFalse();
        assertThat(jpaStore().read(k).orElseThrow().status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(jpaStore().complete(k, "Owner-1", outcome, Duration.ofHours(1)))
                .isTrue();
    }

    /**
     * An owner that runs past its lease without a competitor may still complete (the SPI's rule), so
     * the purge must not delete its claim as soon as the lease ends: IN_PROGRESS rows are kept for a
     * grace ({@code idempotency.jpa.claim-grace}, one hour by default) after their lease.
     */
    @Test
    void purgeKeepsAnEndedClaimForItsGraceSoThatItsOwnerStillCompletes() {
        String slow = Hashing.sha256Hex("slow-owner-" + System.nanoTime());
        assertThat(jpaStore().claim(slow, "slow", "fp", Duration.ofSeconds(1)).claimed())
                .isTrue();
        CLOCK.advance(Duration.ofMinutes(10));
        purgeAll();
        assertThat(jpaStore().complete(slow, "slow", "late".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                .as("the owner completes after its lease, nobody having taken over")
                .isTrue();

        String abandoned = Hashing.sha256Hex("abandoned-" + System.nanoTime());
        jpaStore().claim(abandoned, "gone", "fp", Duration.ofSeconds(1));
        CLOCK.advance(Duration.ofHours(2));
        purgeAll();
        assertThat(jpaStore().release(abandoned, "gone"))
                .as("an abandoned claim is purged once its grace ended")
                .isFalse();
    }

    private void purgeAll() {
        for (int round = 0; round < 1000 && jpaStore().purgeExpired(1000) > 0; round++) {
            // until a batch comes back empty
        }
    }

    @Override
    protected int raceThreads() {
        return 16;
    }

    @Override
    protected int raceKeys() {
        return 200;
    }
}
