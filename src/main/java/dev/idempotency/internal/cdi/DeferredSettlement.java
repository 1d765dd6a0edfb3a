package dev.idempotency.internal.cdi;

import dev.idempotency.internal.core.Settlement;
import dev.idempotency.internal.core.WorkTransactions;
import java.util.function.Supplier;

/**
 * A settlement looked up when the container can look it up: the runtime starts where CDI lookups wait
 * (Quarkus's ArC starts it during static init, {@link
 * dev.idempotency.internal.stores.ContainerResources#lookupsReady}), and the JTA registry is found at
 * the CDI {@code Startup} event ({@link IdempotencyRuntime#started}), or at a call before it.
 */
final class DeferredSettlement implements Settlement {

    private final Supplier<Settlement> lookup;
    private volatile Settlement found;

    DeferredSettlement(Supplier<Settlement> lookup) {
        this.lookup = lookup;
    }

    /**
     * The settlement, looked up on the first call.
     *
     * @throws dev.idempotency.IdempotencyConfigurationException the lookup failed (see {@link
     *     TransactionSettlement#lookup})
     */
    Settlement get() {
        Settlement s = found;
        if (s == null) {
            synchronized (this) {
                s = found;
                if (s == null) {
                    s = lookup.get();
                    found = s;
                }
            }
        }
        return s;
    }

    @Override
    public void afterWork(Runnable onCommit, Runnable onRollback) {
        get().afterWork(onCommit, onRollback);
    }

    @Override
    public void watch(WorkTransactions work) {
        get().watch(work);
    }
}
