package dev.idempotency.bench;

import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.internal.stores.redis.RedisIdempotencyStore;
import dev.idempotency.internal.stores.redis.RedisStoreSettings;
import dev.idempotency.internal.stores.redis.RedisStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import redis.clients.jedis.params.SetParams;

/**
 * Claims per second of the Redis store against the raw floor on the same server and the same
 * connection pool: one {@code SET key value NX PX} of a new key with a value of the same size as the
 * store's claim. The store's claim of a new key is one {@code SET NX PX GET} round trip plus encoding
 * the record. Also: a whole new-key cycle (claim, then complete) against the raw floor of two round
 * trips ({@code SET NX PX}, then {@code SET XX PX}).
 *
 * <pre>
 * mvn -Pbench verify -DskipTests -DskipITs -Djmh.args='RedisClaimBench -f 1 -wi 3 -i 5'
 * </pre>
 *
 * Needs Redis on 127.0.0.1:6379; {@code -p waitReplicas=1} measures replica acknowledgements (start a
 * replica of it first: redis-server --port 6380 --replicaof 127.0.0.1 6379 --save "" --appendonly no).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(4)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class RedisClaimBench {

    /** Replicas each claim and completion waits for ({@code idempotency.redis.wait-replicas}). */
    @Param({"0"})
    public int waitReplicas;

    private static final String PREFIX = "idempotency-bench:";
    /** A database of its own, emptied after every iteration; no test uses it. */
    private static final int DATABASE = 15;

    private RedisIdempotencyStore store;
    private final AtomicLong keys = new AtomicLong();
    private final Duration lease = Duration.ofMinutes(1);
    private final long px = Duration.ofMinutes(1).toMillis();
    private byte[] claimSizedValue;
    private final byte[] outcome = "{\"id\":42,\"status\":\"paid\"}".getBytes(StandardCharsets.UTF_8);

    /** Connects to the machine's Redis. */
    @Setup(Level.Trial)
    public void start() {
        store = RedisStores.start(ConfigLookup.of(Map.of(
                RedisStoreSettings.URI,
                "redis://127.0.0.1:6379/" + DATABASE,
                RedisStoreSettings.KEY_PREFIX,
                PREFIX,
                RedisStoreSettings.WAIT_REPLICAS,
                String.valueOf(waitReplicas))));
        // The same number of bytes as a claim's encoded record, so the floor moves the same payload.
        String probe = nextKey();
        store.claim(probe, "owner-0000000000", "f".repeat(64), lease);
        claimSizedValue = new byte[store.client().get(store.redisKey(probe)).length];
        minimalCasSha = store.client()
                .scriptLoad(MINIMAL_CAS.getBytes(StandardCharsets.UTF_8), store.redisKey(probe));
    }

    /** Keeps Redis small: every operation adds a key. */
    @TearDown(Level.Iteration)
    public void clear() {
        store.client().flushDB();
    }

    /** Closes the pool. */
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
        return store.claim(nextKey(), "owner-0000000000", "f".repeat(64), lease).claimed();
    }

    /** The floor: one {@code SET NX PX} of a new key on the same pool. */
    @Benchmark
    public String rawSetNx() {
        return store.client()
                .set(
                        store.redisKey(nextKey()),
                        claimSizedValue,
                        SetParams.setParams().nx().px(px));
    }

    /** The floor with the store's command: {@code SET NX PX GET} of a new key. */
    @Benchmark
    public byte[] rawSetNxGet() {
        return store.client()
                .setGet(
                        store.redisKey(nextKey()),
                        claimSizedValue,
                        SetParams.setParams().nx().px(px));
    }

    /** A new key's whole cycle: claim, then complete with a small outcome. */
    @Benchmark
    public boolean claimAndComplete() {
        String k = nextKey();
        store.claim(k, "owner-0000000000", "f".repeat(64), lease);
        return store.complete(k, "owner-0000000000", outcome, Duration.ofHours(24));
    }

    /**
     * The least a fenced completion costs on Redis 7, which has no conditional {@code SET} on a value:
     * {@code SET NX PX}, then the smallest compare-and-set script ({@code GET}, compare, {@code SET PX}).
     */
    @Benchmark
    public Object rawSetNxThenCas() {
        byte[] rk = store.redisKey(nextKey());
        store.client().set(rk, claimSizedValue, SetParams.setParams().nx().px(px));
        return store.client().evalsha(minimalCasSha, List.of(rk), List.of(claimSizedValue, outcome, PX_ARG));
    }

    private static final String MINIMAL_CAS = "if redis.call('GET', KEYS[1]) == ARGV[1] then"
            + " return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end return 0";
    private static final byte[] PX_ARG = "60000".getBytes(StandardCharsets.US_ASCII);
    private byte[] minimalCasSha;

    /** The floor of a cycle: {@code SET NX PX}, then {@code SET XX PX} with the outcome. */
    @Benchmark
    public String rawSetNxThenSetXx() {
        byte[] rk = store.redisKey(nextKey());
        store.client().set(rk, claimSizedValue, SetParams.setParams().nx().px(px));
        return store.client().set(rk, outcome, SetParams.setParams().xx().px(px));
    }
}
