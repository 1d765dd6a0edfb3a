package dev.idempotency.ops.metrics;

import dev.idempotency.internal.ops.Jmx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Registers the metrics as MXBeans on the platform MBean server, which every server has: one per
 * operation, one for the store. Names carry the application's name, so two applications on one
 * server keep apart; the beans are unregistered with the application.
 */
final class JmxPublisher {

    /** The JMX domain of every MBean of this library. */
    static final String DOMAIN = "dev.idempotency";

    private static final System.Logger LOG = System.getLogger(JmxPublisher.class.getName());

    private final IdempotencyMetrics metrics;
    private final String application = Jmx.applicationName();
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();

    JmxPublisher(IdempotencyMetrics metrics) {
        this.metrics = metrics;
    }

    void storeAttached() {
        add(Jmx.register(application, "Store", null, new StandardMBean(new StoreView(), StoreMXBean.class, true)));
    }

    void operationAdded(OperationCounters counters) {
        add(Jmx.register(
                application,
                "Operation",
                counters.name,
                new StandardMBean(new OperationView(counters), OperationMXBean.class, true)));
    }

    private void add(ObjectName on) {
        if (on != null) {
            registered.add(on);
        }
    }

    void close() {
        for (ObjectName on : registered) {
            Jmx.unregister(on);
        }
        registered.clear();
    }

    private final class StoreView implements StoreMXBean {
        @Override
        public String getStore() {
            return metrics.storeName();
        }

        @Override
        public long getMemoryRecords() {
            return metrics.memoryRecords().orElse(-1);
        }

        @Override
        public List<StoreMetrics> getPrimitives() {
            return metrics.store();
        }

        @Override
        public boolean isMetricsEnabled() {
            return metrics.enabled();
        }
    }

    private static final class OperationView implements OperationMXBean {
        private final OperationCounters c;

        OperationView(OperationCounters c) {
            this.c = c;
        }

        @Override
        public String getOperation() {
            return c.name;
        }

        @Override
        public long getExecutions() {
            return c.outcomes[OperationCounters.EXECUTED].sum();
        }

        @Override
        public long getReplays() {
            return c.outcomes[OperationCounters.REPLAYED].sum();
        }

        @Override
        public long getInProgressRefusals() {
            return c.outcomes[OperationCounters.IN_PROGRESS].sum();
        }

        @Override
        public long getMismatches() {
            return c.outcomes[OperationCounters.MISMATCH].sum();
        }

        @Override
        public long getMissingKeys() {
            return c.outcomes[OperationCounters.KEY_MISSING].sum();
        }

        @Override
        public long getStoreUnavailable() {
            return c.outcomes[OperationCounters.STORE_UNAVAILABLE].sum();
        }

        @Override
        public long getTakeovers() {
            return c.takeovers.sum();
        }

        @Override
        public Map<String, Long> getReleases() {
            return c.snapshot().releases();
        }

        @Override
        public long getOutcomesNotStored() {
            return c.unstored[0].sum() + c.unstored[1].sum();
        }
    }
}
