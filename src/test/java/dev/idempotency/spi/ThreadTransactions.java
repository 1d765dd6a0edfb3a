package dev.idempotency.spi;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;

/**
 * A JTA transaction per thread, as a container's {@link TransactionSynchronizationRegistry} shows it to
 * a store that joins it: a status, interposed synchronizations run at the end, rollback-only. For
 * stores that find the registry in JNDI, {@link #bind} makes this one the answer at a name.
 */
public final class ThreadTransactions
        implements TransactionSynchronizationRegistry, IdempotencyStoreContract.CallerTransaction {

    private static final class Tx {
        final List<Synchronization> synchronizations = new ArrayList<>();
        final Map<Object, Object> resources = new ConcurrentHashMap<>();
        boolean rollbackOnly;
    }

    private final ThreadLocal<Tx> current = new ThreadLocal<>();

    @Override
    public void begin() {
        if (current.get() != null) {
            throw new IllegalStateException("a transaction is already active on this thread");
        }
        current.set(new Tx());
    }

    /** Commits, or rolls back (and throws) when marked rollback-only, as a container does. */
    @Override
    public void commit() {
        Tx tx = active();
        for (Synchronization s : List.copyOf(tx.synchronizations)) {
            s.beforeCompletion();
        }
        boolean committed = !tx.rollbackOnly;
        end(tx, committed ? Status.STATUS_COMMITTED : Status.STATUS_ROLLEDBACK);
        if (!committed) {
            throw new IllegalStateException("the transaction was marked rollback-only and rolled back");
        }
    }

    @Override
    public void rollback() {
        end(active(), Status.STATUS_ROLLEDBACK);
    }

    private void end(Tx tx, int status) {
        current.remove();
        for (Synchronization s : tx.synchronizations) {
            s.afterCompletion(status);
        }
    }

    private Tx active() {
        Tx tx = current.get();
        if (tx == null) {
            throw new IllegalStateException("no transaction on this thread");
        }
        return tx;
    }

    @Override
    public Object getTransactionKey() {
        return current.get();
    }

    @Override
    public void putResource(Object key, Object value) {
        active().resources.put(key, value);
    }

    @Override
    public Object getResource(Object key) {
        return active().resources.get(key);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        active().synchronizations.add(sync);
    }

    @Override
    public int getTransactionStatus() {
        Tx tx = current.get();
        if (tx == null) {
            return Status.STATUS_NO_TRANSACTION;
        }
        return tx.rollbackOnly ? Status.STATUS_MARKED_ROLLBACK : Status.STATUS_ACTIVE;
    }

    @Override
    public void setRollbackOnly() {
        active().rollbackOnly = true;
    }

    @Override
    public boolean markForRollback() {
        setRollbackOnly();
        return true;
    }

    @Override
    public boolean getRollbackOnly() {
        return active().rollbackOnly;
    }

    /** What {@link Jndi} answers, by name. */
    private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    /**
     * Makes {@code registry} the answer of JNDI lookups of {@code name} in this JVM, until {@link
     * #unbindAll}.
     */
    public static void bind(String name, TransactionSynchronizationRegistry registry) {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, Jndi.class.getName());
        BOUND.put(name, registry);
    }

    /** Forgets every binding and the JNDI of {@link #bind}. */
    public static void unbindAll() {
        BOUND.clear();
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
    }

    /** A JNDI that knows only what {@link #bind} bound. */
    public static final class Jndi implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(
                    Jndi.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                        if (method.getName().equals("lookup") && args[0] instanceof String name) {
                            Object o = BOUND.get(name);
                            if (o == null) {
                                throw new NameNotFoundException(name);
                            }
                            return o;
                        }
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    });
        }
    }
}
