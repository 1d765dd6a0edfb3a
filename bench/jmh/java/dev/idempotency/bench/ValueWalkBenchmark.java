package dev.idempotency.bench;

import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.KeyReader;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What reading the key and the fingerprint of a guarded call costs, per argument shape ({@link
 * ValueWalkShapes}): exactly what the interceptor does before it claims the key, that is the
 * method's {@link KeyReader} and {@code GuardedMethod.fingerprint} (canonical JSON of all arguments,
 * then SHA-256), both taken from the {@link GuardedMethod} that {@code GuardedMethod.plan} made. The
 * record key digest and the store are not part of it.
 *
 * <ul>
 *   <li>{@code a_} to {@code e_}: a warm call, one shape each; {@code a_floor} (a String key and a
 *       long) is what the others are compared with.
 *   <li>{@code digest_}: SHA-256 of a shape's canonical arguments alone, the part of the fingerprint
 *       that grows with the text whatever the shape.
 *   <li>{@code firstCall_}: the first call of a planned method whose classes were never read before
 *       (fresh copies of {@link ValueWalkShapes}' classes, loaded for each call): what the per-class
 *       metadata that is not computed at deployment costs (JSON-B's own class model, for records and
 *       beans it writes). The library code is warm; {@code firstCall_floor}, whose arguments have no
 *       class of their own, is the first call's cost without it (new objects, cold caches).
 *   <li>{@code plan_}: {@code GuardedMethod.plan} on fresh classes, what deployment pays per guarded
 *       method: the key reader, and each parameter class's plan ({@code ValueTypes}, cached per class).
 * </ul>
 *
 * <p>Before measuring, every shape is run 20,000 times in the fork, so that the compiled code has seen
 * all of them, as in an application with several guarded methods, rather than one class only. The
 * private members are reached through {@code MethodHandles.privateLookupIn}: a rename fails the
 * benchmark at its start. With {@code -prof gc}, the bytes per operation of {@code firstCall_} and
 * {@code plan_} include their per-call setup (loading the classes), so they are not the call's own.
 *
 * <pre>mvn -Pbench verify -DskipTests -DskipITs -Djmh.args="ValueWalkBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class ValueWalkBenchmark {

    static final String[] SHAPES = {
        "floor",
        "record",
        "recordPackagePrivate",
        "recordKeyInPayload",
        "valueClass",
        "hierarchy",
        "list10",
        "list100",
        "map10",
        "map100",
        "recordList10",
        "recordList100"
    };

    private static final IdempotencyEngine ENGINE = new IdempotencyEngine(new MemoryIdempotencyStore());
    private static final PolicyResolver POLICIES = new PolicyResolver(ConfigLookup.none());

    /** {@code GuardedMethod.fingerprint(Object[])}, private: the interceptor's own code, not a copy. */
    private static final MethodHandle FINGERPRINT;
    /** {@code GuardedMethod.keys}, the method's key reader. */
    private static final MethodHandle KEYS;
    /** {@code GuardedMethod.writers} and {@code CanonicalJson.ofArguments}: the text that is digested. */
    private static final MethodHandle WRITERS;

    private static final MethodHandle CANONICAL_ARGUMENTS;

    static {
        try {
            MethodHandles.Lookup guarded = MethodHandles.privateLookupIn(GuardedMethod.class, MethodHandles.lookup());
            FINGERPRINT = guarded.findVirtual(
                    GuardedMethod.class, "fingerprint", MethodType.methodType(String.class, Object[].class));
            KEYS = guarded.findGetter(GuardedMethod.class, "keys", KeyReader.class);
            Class<?> canonical = Class.forName("dev.idempotency.internal.core.CanonicalJson");
            Class<?> writers = Class.forName("dev.idempotency.internal.core.CanonicalJson$ArgumentWriter")
                    .arrayType();
            WRITERS = guarded.findGetter(GuardedMethod.class, "writers", writers)
                    .asType(MethodType.methodType(Object.class, GuardedMethod.class));
            CANONICAL_ARGUMENTS = MethodHandles.privateLookupIn(canonical, MethodHandles.lookup())
                    .findStatic(canonical, "ofArguments", MethodType.methodType(String.class, Object[].class, writers))
                    .asType(MethodType.methodType(String.class, Object[].class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A planned method and the arguments of one call. */
    static final class Call {
        final GuardedMethod plan;
        final KeyReader keys;
        /** {@code plan.fingerprint}, typed {@code (Object[])String}. */
        final MethodHandle fingerprint;

        final Object[] args;

        Call(GuardedMethod plan, Object[] args) {
            this.plan = plan;
            this.args = args;
            try {
                this.keys = (KeyReader) KEYS.invokeExact(plan);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            this.fingerprint = FINGERPRINT.bindTo(plan);
        }

        /** What the interceptor does before it claims: the key text, then the fingerprint. */
        void keyAndFingerprint(Blackhole bh) throws Throwable {
            bh.consume(keys.read(args));
            bh.consume((String) fingerprint.invokeExact(args));
        }

        String canonicalArguments() throws Throwable {
            return (String) CANONICAL_ARGUMENTS.invokeExact(args, (Object) WRITERS.invokeExact(plan));
        }
    }

    static OperationPolicy policy(Method m) {
        return POLICIES.resolve(m, m.getAnnotation(Idempotent.class));
    }

    static Call call(Method m, Object[] args) {
        return new Call(GuardedMethod.plan(m, policy(m), ENGINE), args);
    }

    private Call floor;
    private Call record;
    private Call recordPackagePrivate;
    private Call recordKeyInPayload;
    private Call valueClass;
    private Call hierarchy;
    private Call list10;
    private Call list100;
    private Call map10;
    private Call map100;
    private Call recordList10;
    private Call recordList100;
    private String floorText;
    private String list100Text;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        Map<String, Call> calls = new HashMap<>();
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        for (String shape : SHAPES) {
            Call c = call(ValueWalkShapes.method(shape), ValueWalkShapes.args(shape));
            String key = c.keys.read(c.args);
            String fingerprint = (String) c.fingerprint.invokeExact(c.args);
            if (key == null || fingerprint.length() != 64) {
                throw new IllegalStateException(shape + ": key " + key + ", fingerprint " + fingerprint);
            }
            System.out.printf(
                    "%s: key text %d chars, canonical arguments %d chars%n",
                    shape, key.length(), c.canonicalArguments().length());
            calls.put(shape, c);
        }
        floor = calls.get("floor");
        record = calls.get("record");
        recordPackagePrivate = calls.get("recordPackagePrivate");
        recordKeyInPayload = calls.get("recordKeyInPayload");
        valueClass = calls.get("valueClass");
        hierarchy = calls.get("hierarchy");
        list10 = calls.get("list10");
        list100 = calls.get("list100");
        map10 = calls.get("map10");
        map100 = calls.get("map100");
        recordList10 = calls.get("recordList10");
        recordList100 = calls.get("recordList100");
        floorText = calls.get("floor").canonicalArguments();
        list100Text = calls.get("list100").canonicalArguments();
        for (String shape : SHAPES) {
            Call c = calls.get(shape);
            for (int i = 0; i < 20_000; i++) {
                c.keyAndFingerprint(bh);
            }
        }
        bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
    }

    @Benchmark
    public void a_floor(Blackhole bh) throws Throwable {
        floor.keyAndFingerprint(bh);
    }

    @Benchmark
    public void b_record(Blackhole bh) throws Throwable {
        record.keyAndFingerprint(bh);
    }

    @Benchmark
    public void b_recordPackagePrivate(Blackhole bh) throws Throwable {
        recordPackagePrivate.keyAndFingerprint(bh);
    }

    @Benchmark
    public void b_recordKeyInPayload(Blackhole bh) throws Throwable {
        recordKeyInPayload.keyAndFingerprint(bh);
    }

    @Benchmark
    public void c_valueClass(Blackhole bh) throws Throwable {
        valueClass.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_list10(Blackhole bh) throws Throwable {
        list10.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_list100(Blackhole bh) throws Throwable {
        list100.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_map10(Blackhole bh) throws Throwable {
        map10.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_map100(Blackhole bh) throws Throwable {
        map100.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_recordList10(Blackhole bh) throws Throwable {
        recordList10.keyAndFingerprint(bh);
    }

    @Benchmark
    public void d_recordList100(Blackhole bh) throws Throwable {
        recordList100.keyAndFingerprint(bh);
    }

    @Benchmark
    public void e_hierarchy(Blackhole bh) throws Throwable {
        hierarchy.keyAndFingerprint(bh);
    }

    /** SHA-256 of the floor's canonical arguments, as the fingerprint takes it. */
    @Benchmark
    public String digest_floor() {
        return Hashing.sha256Hex(floorText);
    }

    /** SHA-256 of {@code list100}'s canonical arguments. */
    @Benchmark
    public String digest_list100() {
        return Hashing.sha256Hex(list100Text);
    }

    /**
     * Fresh copies of {@link ValueWalkShapes}' classes for every call, the shape named by the
     * benchmark's suffix; for {@code firstCall_}, its method already planned.
     */
    @State(Scope.Thread)
    public static class Fresh {
        Method method;
        Object[] args;
        OperationPolicy policy;
        Call planned;

        @Setup(Level.Invocation)
        public void load(BenchmarkParams params) throws ReflectiveOperationException {
            String benchmark = params.getBenchmark();
            String shape = benchmark.substring(benchmark.lastIndexOf('_') + 1);
            Class<?> shapes = Class.forName(ValueWalkShapes.class.getName(), true, new FreshLoader());
            method = (Method) shapes.getMethod("method", String.class).invoke(null, shape);
            // Creating the arguments loads and initialises every class of the shape.
            args = (Object[]) shapes.getMethod("args", String.class).invoke(null, shape);
            policy = policy(method);
            planned = benchmark.contains(".firstCall_")
                    ? new Call(GuardedMethod.plan(method, policy, ENGINE), args)
                    : null;
        }
    }

    @Benchmark
    public void firstCall_floor(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public void firstCall_record(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public void firstCall_valueClass(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public void firstCall_hierarchy(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public void firstCall_list100(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public void firstCall_recordList100(Fresh f, Blackhole bh) throws Throwable {
        f.planned.keyAndFingerprint(bh);
    }

    @Benchmark
    public GuardedMethod plan_floor(Fresh f) {
        return GuardedMethod.plan(f.method, f.policy, ENGINE);
    }

    @Benchmark
    public GuardedMethod plan_record(Fresh f) {
        return GuardedMethod.plan(f.method, f.policy, ENGINE);
    }

    @Benchmark
    public GuardedMethod plan_valueClass(Fresh f) {
        return GuardedMethod.plan(f.method, f.policy, ENGINE);
    }

    @Benchmark
    public GuardedMethod plan_list100(Fresh f) {
        return GuardedMethod.plan(f.method, f.policy, ENGINE);
    }

    /** Defines {@link ValueWalkShapes} and its nested classes anew; everything else comes from the parent. */
    static final class FreshLoader extends ClassLoader {
        private static final String PREFIX = ValueWalkShapes.class.getName();
        private static final Map<String, byte[]> BYTES = new ConcurrentHashMap<>();

        FreshLoader() {
            super(ValueWalkShapes.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(PREFIX) && !name.startsWith(PREFIX + "$")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = BYTES.computeIfAbsent(name, FreshLoader::read);
                    c = defineClass(name, b, 0, b.length);
                }
                return c;
            }
        }

        private static byte[] read(String name) {
            try (InputStream in =
                    ValueWalkShapes.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
