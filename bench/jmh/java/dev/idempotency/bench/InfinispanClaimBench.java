package dev.idempotency.bench;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import dev.idempotency.internal.stores.infinispan.InfinispanLocalStore;
import dev.idempotency.internal.stores.infinispan.InfinispanStoreSettings;
import dev.idempotency.internal.stores.infinispan.InfinispanStores;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.infinispan.Cache;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Claims per second of the single-node Infinispan store against a raw {@code putIfAbsent} (with the
 * same lifespan) on the same local cache. Every operation uses a new key, as most real requests do.
 * The cluster's figures are {@link InfinispanClusterClaimBench}'s.
 *
 * <pre>
 * mvn -Pbench verify -DskipTests -DskipITs -Djmh.args='InfinispanClaimBench -f 1 -wi 3 -i 5'
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx6g", "-Djava.net.preferIPv4Stack=true"})
public class InfinispanClaimBench {

    private InfinispanLocalStore store;
    private Cache<String, IdempotencyRecord> cache;
    private final AtomicLong keys = new AtomicLong();
    private final Duration lease = Duration.ofMinutes(1);
    private final long lifespan =
            lease.plus(InfinispanStoreSettings.DEFAULT_CLAIM_GRACE).toMillis();
    private final IdempotencyRecord record = new IdempotencyRecord(
            "0".repeat(64),
            RecordStatus.IN_PROGRESS,
            "owner",
            "fp",
            Instant.now().plus(lease),
            null);

    /** Starts the cache manager. */
    @Setup(Level.Trial)
    public void start() {
        store = (InfinispanLocalStore) InfinispanStores.start(
                ConfigLookup.none(), new Properties(), InfinispanClaimBench.class.getClassLoader());
        cache = store.cache();
    }

    /** Keeps the heap bounded: every operation adds an entry. */
    @TearDown(Level.Iteration)
    public void clear() {
        cache.clear();
    }

    /** Stops the cache manager. */
    @TearDown(Level.Trial)
    public void stop() {
        store.close();
    }

    private String nextKey() {
        return Long.toHexString(keys.incrementAndGet() | 0x1000_0000_0000_0000L);
    }

    /** One claim of a new key through the store. */
    @Benchmark
    public boolean claim() {
        return store.claim(nextKey(), "owner", "fp", lease).claimed();
    }

    /** The floor: one {@code putIfAbsent} of a new key, with a lifespan, on the same cache. */
    @Benchmark
    public Object rawPutIfAbsent() {
        return cache.putIfAbsent(nextKey(), record, lifespan, TimeUnit.MILLISECONDS);
    }
}
