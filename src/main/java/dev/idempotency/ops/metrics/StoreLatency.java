package dev.idempotency.ops.metrics;

import dev.idempotency.spi.StorePrimitive;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Calls, failures and time of one store primitive. */
final class StoreLatency {

    final StorePrimitive primitive;
    final LongAdder calls = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder nanos = new LongAdder();
    final AtomicLong maxNanos = new AtomicLong();

    StoreLatency(StorePrimitive primitive) {
        this.primitive = primitive;
    }

    void record(long took, boolean failed) {
        calls.increment();
        nanos.add(took);
        if (failed) {
            failures.increment();
        }
        long max = maxNanos.get();
        // Rarely taken: only a new maximum writes.
        while (took > max && !maxNanos.compareAndSet(max, took)) {
            max = maxNanos.get();
        }
    }

    StoreMetrics snapshot() {
        long n = calls.sum();
        long total = nanos.sum();
        return new StoreMetrics(primitive.tag(), n, failures.sum(), n == 0 ? 0 : total / n, maxNanos.get());
    }
}
