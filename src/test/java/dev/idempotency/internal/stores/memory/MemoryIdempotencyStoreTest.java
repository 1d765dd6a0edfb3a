package dev.idempotency.internal.stores.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The store contract on the memory store, with a hand-moved clock instead of sleeps. */
class MemoryIdempotencyStoreTest extends IdempotencyStoreContract {

    private final MutableClock clock = new MutableClock();
    private final MemoryIdempotencyStore memory = new MemoryIdempotencyStore(clock);

    @Override
    protected IdempotencyStore store() {
        return memory;
    }

    @Override
    protected void elapse(Duration d) {
        clock.advance(d);
    }

    @Test
    void purgePhysicallyRemovesExpiredRecords() {
        for (int i = 0; i < 10; i++) {
            String k = key();
            memory.claim(k, "o", "fp", SHORT);
            if (i % 2 == 0) {
                memory.complete(k, "o", "x".getBytes(StandardCharsets.UTF_8), SHORT);
            }
        }
        String live = key();
        memory.claim(live, "o", "fp", LONG);
        assertThat(memory.size()).isEqualTo(11);
        clock.advance(PAST_SHORT);
        // The 5 expired outcomes go; the 5 abandoned claims stay for the claim grace.
        assertThat(memory.purgeExpired(4)).isEqualTo(4);
        assertThat(memory.purgeExpired(100)).isEqualTo(1);
        assertThat(memory.size()).isEqualTo(6);
        assertThat(memory.read(live)).isPresent();
        clock.advance(MemoryStoreSettings.DEFAULT_CLAIM_GRACE);
        assertThat(memory.purgeExpired(100)).isEqualTo(5);
        assertThat(memory.size()).isEqualTo(1);
    }

    @Test
    void anOwnerPastItsLeaseThatNobodyTookOverStillCompletesAfterAPurge() {
        String k = key();
        assertThat(memory.claim(k, "slow", "fp", SHORT).claimed()).isTrue();
        clock.advance(PAST_SHORT);
        memory.purgeExpired(100);
        // Within the claim grace the late owner's outcome is kept: a repeat replays instead of running again.
        assertThat(memory.complete(k, "slow", "done".getBytes(StandardCharsets.UTF_8), LONG))
                .isTrue();
        assertThat(memory.read(k).orElseThrow().outcome()).isEqualTo("done".getBytes(StandardCharsets.UTF_8));
        // After the grace, an abandoned claim is purged.
        String abandoned = key();
        memory.claim(abandoned, "gone", "fp", SHORT);
        clock.advance(MemoryStoreSettings.DEFAULT_CLAIM_GRACE.plus(PAST_SHORT));
        memory.purgeExpired(100);
        assertThat(memory.complete(abandoned, "gone", new byte[0], LONG)).isFalse();
    }

    @Test
    void anOperatorDeleteGivesItsRoomBack() {
        MemoryIdempotencyStore small = new MemoryIdempotencyStore(clock, new MemoryStoreSettings(2, 1_000_000));
        for (int round = 0; round < 5; round++) {
            String a = key();
            String b = key();
            small.claim(a, "o", "fp", LONG);
            small.claim(b, "o", "fp", LONG);
            small.complete(a, "o", new byte[10], LONG);
            small.complete(b, "o", new byte[10], LONG);
            assertThat(small.deleteCompleted(a, "o")).isTrue();
            assertThat(small.deleteCompleted(b, "o")).isTrue();
            assertThat(small.size()).isZero();
            assertThat(small.bytes())
                    .as("bytes held after deleting every record")
                    .isZero();
        }
    }
}
