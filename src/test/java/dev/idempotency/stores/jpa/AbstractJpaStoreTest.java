package dev.idempotency.stores.jpa;

import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.IdempotencyStoreContract;
import dev.idempotency.spi.MutableClock;
import java.time.Duration;

/**
 * The store contract on the JPA store (Hibernate, resource-local, separate mode) with a hand-moved
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

    @Override
    protected int raceThreads() {
        return 16;
    }

    @Override
    protected int raceKeys() {
        return 200;
    }
}
