package dev.idempotency.bench;

import dev.idempotency.internal.cdi.IdempotencyExtension;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.cdi.IdempotentInterceptor;
import dev.idempotency.internal.cdi.IdempotentWorkInterceptor;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import dev.idempotency.internal.core.Hashing;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The interceptor's cost on the memory store, in Weld: an unguarded call, a guarded call with a new
 * key every time (claim, run, store), a guarded call that replays (claim fails, decode), and as a
 * floor the two digests alone.
 *
 * <p>New keys cycle through 16,384 values with a ttl of 1 ms, so by the time a value comes back its
 * record has expired and the call claims it again: every call takes the new-key path, and the map
 * stays small enough that the benchmark measures the guard rather than cache misses and GC of a
 * large map.
 *
 * <p>The guard is both interceptors, as deployed: the inner one ({@link IdempotentWorkInterceptor})
 * reports the transaction a guarded body runs in (in Weld there is no JTA, so it costs the second
 * interception and the hand-over through the context data); a deployment without it is refused.
 *
 * <pre>mvn -Pbench verify -DskipTests -DskipITs -Djmh.args="InterceptorBenchmark -f 3 -wi 3 -i 5"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// A fixed heap touched at start: otherwise the guarded calls' allocations land on heap pages the
// kernel maps on first touch for minutes, and page faults (11% of a new key's profile) measure the
// JVM's warm-up rather than the guard.
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class InterceptorBenchmark {

    private static final int KEY_SPACE = 1 << 14;

    private WeldContainer container;
    private BenchService service;
    private String[] keys;
    private int next;

    @Setup(Level.Trial)
    public void boot() {
        Weld weld = new Weld()
                .disableDiscovery()
                .addExtension(new IdempotencyExtension())
                .addBeanClasses(
                        IdempotentInterceptor.class,
                        IdempotentWorkInterceptor.class,
                        FilteredRequest.class,
                        IdempotencyRuntime.class,
                        BenchService.class);
        container = weld.initialize();
        service = container.select(BenchService.class).get();
        keys = new String[KEY_SPACE];
        for (int i = 0; i < KEY_SPACE; i++) {
            keys[i] = "order-" + i;
        }
        service.kept("replayed-order", 4200);
    }

    @TearDown(Level.Trial)
    public void shutdown() {
        container.close();
    }

    @Benchmark
    public String unguarded() {
        return service.plain(keys[next++ & (KEY_SPACE - 1)], 4200);
    }

    @Benchmark
    public String guardedNewKey() {
        return service.guarded(keys[next++ & (KEY_SPACE - 1)], 4200);
    }

    @Benchmark
    public String guardedReplay() {
        return service.kept("replayed-order", 4200);
    }

    /**
     * The two SHA-256 digests every guarded call needs (the record key over operation, scope and key;
     * the fingerprint over the canonical arguments), on inputs of the same size, without the guard:
     * the part of the overhead that no implementation of this design avoids.
     */
    @Benchmark
    public String twoDigests() {
        String key = keys[next++ & (KEY_SPACE - 1)];
        String fingerprint = Hashing.sha256Hex("[\"" + key + "\",4200]");
        return Hashing.sha256Hex("bench.guarded", "", "[\"" + key + "\"]") + fingerprint;
    }
}
