package dev.idempotency.examples.store;

import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.MutableClock;
import java.time.Duration;

/** The library's store TCK on the sample store, with a clock moved by hand instead of sleeps. */
class SampleStoreTest extends IdempotencyStoreContract {

    private final MutableClock clock = new MutableClock();
    private final SampleStore sample = new SampleStore(clock);

    @Override
    protected IdempotencyStore store() {
        return sample;
    }

    @Override
    protected void elapse(Duration d) {
        clock.advance(d);
    }
}
