package dev.idempotency.bench;

import dev.idempotency.ids.SnowflakeIds;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Snowflake ids per second: one thread, and two threads sharing one generator. The ceiling is 4,096
 * ids per millisecond (4.096M/s) per worker id: past it a thread waits for the next millisecond.
 *
 * <p>{@code mvn -Pbench verify -DskipTests -DskipITs -Djmh.args='SnowflakeBench -f 1 -wi 3 -i 5'}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SnowflakeBench {

    private final SnowflakeIds ids = new SnowflakeIds(1, Instant.parse("2024-01-01T00:00:00Z"), Duration.ofSeconds(1));

    /** One thread. */
    @Benchmark
    public long nextId() {
        return ids.nextId();
    }

    /** Two threads on one generator (one per core here). */
    @Benchmark
    @Threads(2)
    public long nextIdTwoThreads() {
        return ids.nextId();
    }
}
