package dev.idempotency.bench;

import dev.idempotency.internal.cdi.IdempotencyExtension;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.cdi.IdempotentInterceptor;
import dev.idempotency.internal.cdi.IdempotentWorkInterceptor;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import dev.idempotency.ops.metrics.IdempotencyMetrics;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
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
 * What the metrics cost a guarded call: the interceptor on the memory store (as {@link
 * InterceptorBenchmark}) in two Weld containers of one JVM, one with {@code
 * idempotency.metrics.enabled=false} and one with {@code true}, measured side by side: each JMH group
 * runs the "off" and the "on" method at the same time on two threads, so both see the same machine
 * state (this machine is shared and its load swings widely; sequential runs of the two settings
 * differed by 10x between rounds). With metrics on, every call is counted (LongAdder, JMX); the
 * memory store's calls are not timed (a store that leaves the JVM has its calls timed, two clock reads
 * against at least 100 µs per call); MP Metrics and OpenTelemetry are absent here, as on a server
 * without them.
 *
 * <pre>mvn -Pbench verify -DskipTests -DskipITs -Djmh.args="MetricsCostBenchmark -f 3 -wi 3 -i 8"</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(1)
public class MetricsCostBenchmark {

    private static final int KEY_SPACE = 1 << 14;

    /** The two containers, shared by the two threads of a group. */
    @State(Scope.Group)
    public static class Both {
        WeldContainer off;
        WeldContainer on;
        BenchService offService;
        BenchService onService;

        @Setup(Level.Trial)
        public void boot() {
            off = container("off", false);
            on = container("on", true);
            offService = off.select(BenchService.class).get();
            onService = on.select(BenchService.class).get();
            offService.kept("replayed-order", 4200);
            onService.kept("replayed-order", 4200);
        }

        private static WeldContainer container(String id, boolean metrics) {
            System.setProperty("idempotency.metrics.enabled", String.valueOf(metrics));
            WeldContainer c = new Weld(id)
                    .disableDiscovery()
                    .addExtension(new IdempotencyExtension())
                    .addBeanClasses(
                            IdempotentInterceptor.class,
                            IdempotentWorkInterceptor.class,
                            FilteredRequest.class,
                            IdempotencyRuntime.class,
                            IdempotencyMetrics.class,
                            BenchService.class)
                    .initialize();
            if (c.select(IdempotencyMetrics.class).get().enabled() != metrics) {
                throw new IllegalStateException("idempotency.metrics.enabled was not applied");
            }
            return c;
        }

        @TearDown(Level.Trial)
        public void shutdown() {
            off.close();
            on.close();
        }
    }

    /** Each thread's own key cycle. */
    @State(Scope.Thread)
    public static class Keys {
        final String[] keys = new String[KEY_SPACE];
        int next;

        @Setup(Level.Trial)
        public void fill() {
            String thread = Long.toString(Thread.currentThread().getId());
            for (int i = 0; i < KEY_SPACE; i++) {
                keys[i] = "order-" + thread + "-" + i;
            }
        }

        String next() {
            return keys[next++ & (KEY_SPACE - 1)];
        }
    }

    /** A new key with metrics off: claim, run, complete. */
    @Benchmark
    @Group("newKey")
    @GroupThreads(1)
    public String newKeyOff(Both b, Keys k) {
        return b.offService.guarded(k.next(), 4200);
    }

    /** A new key with metrics on: one execution counted. */
    @Benchmark
    @Group("newKey")
    @GroupThreads(1)
    public String newKeyOn(Both b, Keys k) {
        return b.onService.guarded(k.next(), 4200);
    }

    /** A replay with metrics off. */
    @Benchmark
    @Group("replay")
    @GroupThreads(1)
    public String replayOff(Both b) {
        return b.offService.kept("replayed-order", 4200);
    }

    /** A replay with metrics on: one replay counted. */
    @Benchmark
    @Group("replay")
    @GroupThreads(1)
    public String replayOn(Both b) {
        return b.onService.kept("replayed-order", 4200);
    }
}
