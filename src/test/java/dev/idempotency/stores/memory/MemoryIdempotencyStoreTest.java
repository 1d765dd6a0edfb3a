package dev.idempotency.stores.memory;

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
        assertThat(memory.purgeExpired(4)).isEqualTo(4);
        assertThat(memory.purgeExpired(100)).isEqualTo(6);
        assertThat(memory.size()).isEqualTo(1);
        assertThat(memory.read(live)).isPresent();
    }
}
