package dev.idempotency.ops.metrics;

import dev.idempotency.internal.core.IdempotencyObserver;
import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.ops.OpsSettings;
import dev.idempotency.internal.stores.ContainerResources;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.StorePrimitive;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The metrics of every guarded operation and of the store, counted here once and published:
 *
 * <ol>
 *   <li>through JMX, always (an MXBean per operation and one for the store, on the platform MBean
 *       server);
 *   <li>through MicroProfile Metrics, when the server has it (Payara, Open Liberty's {@code mpMetrics});
 *   <li>through OpenTelemetry, when the server has its API (MicroProfile Telemetry: WildFly, Open
 *       Liberty's {@code mpTelemetry}; Quarkus's {@code quarkus-opentelemetry});
 *   <li>through Micrometer, when the application has it (Quarkus's {@code quarkus-micrometer}).
 * </ol>
 *
 * <p>The engine gets each operation's handle once, when the operation is planned, so a call costs a
 * few {@link java.util.concurrent.atomic.LongAdder} increments and no lookup; store calls are timed
 * only on a store that leaves the JVM ({@link #timesStoreCalls}). With {@code
 * idempotency.metrics.enabled=false} nothing is counted or timed. Operators' code can read the
 * counts with {@link #operations()} and {@link #store()}. Names and tags: docs/operations.md.
 */
@ApplicationScoped
public class IdempotencyMetrics implements IdempotencyObserver {

    private static final System.Logger LOG = System.getLogger(IdempotencyMetrics.class.getName());
    private static final String MP_METRICS_PROBE = "org.eclipse.microprofile.metrics.MetricRegistry";
    private static final String OTEL_PROBE = "io.opentelemetry.api.metrics.Meter";
    private static final String MICROMETER_PROBE = "io.micrometer.core.instrument.MeterRegistry";

    private final ConcurrentHashMap<String, OperationCounters> operations = new ConcurrentHashMap<>();
    private final StoreLatency[] latencies = new StoreLatency[StorePrimitive.values().length];
    private final List<MetricsBridge> bridges = new CopyOnWriteArrayList<>();

    @Inject
    Instance<Object> lookup;

    private boolean enabled;
    /** Whether {@link #start} left the bridges to the CDI {@code Startup} event ({@link #started}). */
    private volatile boolean bridgesAtStartup;

    private JmxPublisher jmx;
    private volatile IdempotencyStore store;

    /** Created by the container. */
    public IdempotencyMetrics() {
        for (StorePrimitive p : StorePrimitive.values()) {
            latencies[p.ordinal()] = new StoreLatency(p);
        }
    }

    @PostConstruct
    void start() {
        OpsSettings settings =
                OpsSettings.from(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
        enabled = settings.metricsEnabled();
        jmx = new JmxPublisher(this);
        if (!enabled) {
            return;
        }
        if (ContainerResources.lookupsReady()) {
            addBridges();
        } else {
            // Quarkus, at static init: its OpenTelemetry bean is made at runtime init and cannot be had
            // yet. The operations planned until the Startup event are registered with the bridges then.
            bridgesAtStartup = true;
        }
    }

    void started(@Observes Startup ignored) {
        if (bridgesAtStartup) {
            bridgesAtStartup = false;
            addBridges();
        }
    }

    private void addBridges() {
        if (present(MP_METRICS_PROBE)) {
            add("MicroProfile Metrics", () -> MicroProfileMetricsBridge.create(lookup, this));
        }
        if (present(OTEL_PROBE)) {
            add("OpenTelemetry", () -> OpenTelemetryBridge.create(lookup, this));
        }
        if (present(MICROMETER_PROBE)) {
            add("Micrometer", () -> MicrometerBridge.create(lookup, this));
        }
    }

    @PreDestroy
    void stop() {
        for (MetricsBridge b : bridges) {
            try {
                b.close();
            } catch (RuntimeException | LinkageError e) {
                LOG.log(Level.DEBUG, "closing a metrics bridge failed", e);
            }
        }
        if (jmx != null) {
            jmx.close();
        }
    }

    private void add(String facility, java.util.function.Supplier<MetricsBridge> bridge) {
        try {
            MetricsBridge b = bridge.get();
            if (b != null) {
                synchronized (bridges) {
                    bridges.add(b);
                    for (OperationCounters c : operations.values()) {
                        register(b, c);
                    }
                }
                LOG.log(Level.DEBUG, "idempotency metrics published through {0}", facility);
            }
        } catch (RuntimeException | LinkageError e) {
            // The API is there but the facility is not usable in this deployment (no registry bean, a
            // different API version): the other channels still work.
            LOG.log(Level.DEBUG, "idempotency metrics not published through " + facility, e);
        }
    }

    /** Whether a class of an optional API is visible to this deployment. */
    static boolean present(String className) {
        for (ClassLoader cl : new ClassLoader[] {
            IdempotencyMetrics.class.getClassLoader(), Thread.currentThread().getContextClassLoader()
        }) {
            if (cl == null) {
                continue;
            }
            try {
                Class.forName(className, false, cl);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                // not visible from this loader
            }
        }
        return false;
    }

    // IdempotencyObserver

    @Override
    public void attached(IdempotencyStore store) {
        this.store = store;
        jmx.storeAttached();
    }

    @Override
    public OperationEvents operation(String name) {
        if (!enabled) {
            return OperationEvents.NONE;
        }
        OperationCounters known = operations.get(name);
        if (known != null) {
            return known;
        }
        // Once per operation, when it is planned. Under the lock that a bridge added at the Startup event
        // takes to register the operations it finds: each operation is registered with each bridge once.
        synchronized (bridges) {
            return operations.computeIfAbsent(name, this::newCounters);
        }
    }

    private OperationCounters newCounters(String name) {
        OperationCounters counters = new OperationCounters(name);
        // Before the map publishes the counters, so every caller sees the forwards.
        for (MetricsBridge b : bridges) {
            register(b, counters);
        }
        jmx.operationAdded(counters);
        return counters;
    }

    private static void register(MetricsBridge bridge, OperationCounters counters) {
        try {
            OperationEvents e = bridge.operation(counters);
            if (e != OperationEvents.NONE) {
                counters.forwardTo(e);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, "a metrics bridge could not register operation " + counters.name, e);
        }
    }

    /**
     * True when metrics are on and the store leaves the JVM. The memory store's calls are not timed: one
     * takes about 0.1 µs, about what the two clock reads around it cost, so timing it would double its
     * cost to report nothing an operator acts on (its size is the gauge to watch). docs/performance.md
     * ("Settings that change the cost") has the figures.
     */
    @Override
    public boolean timesStoreCalls() {
        return enabled && !(store instanceof MemoryIdempotencyStore);
    }

    @Override
    public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {
        latencies[primitive.ordinal()].record(nanos, failed);
        for (MetricsBridge b : bridges) {
            b.storeCall(primitive, nanos, failed);
        }
    }

    // Reading

    /** Whether calls are counted ({@code idempotency.metrics.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /** The counts of every operation that was planned (called, or deployed as a resource method). */
    public List<OperationMetrics> operations() {
        List<OperationMetrics> list = new ArrayList<>();
        for (OperationCounters c : operations.values()) {
            list.add(c.snapshot());
        }
        list.sort(java.util.Comparator.comparing(OperationMetrics::operation));
        return list;
    }

    /** The counts of one operation, or empty when it was not planned. */
    public java.util.Optional<OperationMetrics> find(String operation) {
        OperationCounters c = operations.get(operation);
        return c == null ? java.util.Optional.empty() : java.util.Optional.of(c.snapshot());
    }

    /** The calls of each store primitive. */
    public List<StoreMetrics> store() {
        List<StoreMetrics> list = new ArrayList<>();
        for (StoreLatency l : latencies) {
            list.add(l.snapshot());
        }
        return list;
    }

    /** The records the memory store holds, or empty when the store is another one. */
    public OptionalLong memoryRecords() {
        return store instanceof MemoryIdempotencyStore m ? OptionalLong.of(m.size()) : OptionalLong.empty();
    }

    /** The store's class name, or empty before the engine started. */
    public String storeName() {
        IdempotencyStore s = store;
        return s == null ? "" : s.getClass().getName();
    }

    // For the bridges and JMX

    Collection<OperationCounters> counters() {
        return operations.values();
    }

    StoreLatency latency(StorePrimitive p) {
        return latencies[p.ordinal()];
    }

    boolean memoryStore() {
        return store instanceof MemoryIdempotencyStore;
    }
}
