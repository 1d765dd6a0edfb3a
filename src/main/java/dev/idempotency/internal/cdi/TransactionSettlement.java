package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.internal.core.WorkTransactions;
import dev.idempotency.internal.stores.ContainerResources;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger.Level;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.naming.NoInitialContextException;

/**
 * The JTA side of settlement, over the server's {@link TransactionSynchronizationRegistry}:
 *
 * <ul>
 *   <li>{@link #watch} tells a call's {@link WorkTransactions} which transaction the method body
 *       starts in, and reports that transaction's end to it (used next to the body, by {@link
 *       IdempotentWorkInterceptor});
 *   <li>{@link #afterWork} settles with the transaction around the caller of this method, for entry
 *       points that cannot watch the body (the message-consumer interceptor).
 * </ul>
 *
 * The registry is the CDI bean of its type where there is one (Helidon's JTA, Quarkus), else the one
 * JNDI binds. Without JTA (no such bean, no JNDI, or no transaction manager) there is nothing to
 * follow: {@link #lookup} returns {@link Settlement#IMMEDIATE}, and work runs outside any transaction.
 * Loaded only where the JTA API is present ({@link IdempotencyRuntime}): it names JTA types.
 */
final class TransactionSettlement implements Settlement {

    private static final String USER_TRANSACTION = "java:comp/UserTransaction";
    private static final System.Logger LOG = System.getLogger(TransactionSettlement.class.getName());

    private final TransactionSynchronizationRegistry registry;

    private TransactionSettlement(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    /**
     * The settlement for this environment: transactional where JTA is available, else immediate.
     *
     * @param name the registry's JNDI name ({@code idempotency.transaction-registry})
     * @throws IdempotencyConfigurationException the server provides JTA but the registry cannot be
     *     looked up: guarded calls would then be settled before their transactions end, so a rollback
     *     would leave a stored success, and the deployment must not start that way
     */
    static Settlement lookup(String name) {
        TransactionSynchronizationRegistry bean = ContainerResources.bean(
                        TransactionSynchronizationRegistry.class, null)
                .orElse(null);
        if (bean != null) {
            return new TransactionSettlement(bean);
        }
        Object found;
        try {
            found = new InitialContext().lookup(name);
        } catch (NoInitialContextException | LinkageError e) {
            // No JNDI, or no JTA API: not a Jakarta EE server (a plain CDI container, a unit test).
            LOG.log(Level.DEBUG, "no JNDI or JTA here; outcomes are stored when guarded methods return");
            return Settlement.IMMEDIATE;
        } catch (NamingException | RuntimeException e) {
            if (!serverHasJta()) {
                LOG.log(
                        Level.DEBUG,
                        "no JTA transaction manager here; outcomes are stored when guarded methods return");
                return Settlement.IMMEDIATE;
            }
            throw unavailable(name, e.toString(), e);
        }
        if (found instanceof TransactionSynchronizationRegistry r) {
            return new TransactionSettlement(r);
        }
        throw unavailable(
                name,
                "it is bound to " + (found == null ? "null" : found.getClass().getName())
                        + ", not a TransactionSynchronizationRegistry",
                null);
    }

    private static IdempotencyConfigurationException unavailable(String name, String cause, Throwable e) {
        return new IdempotencyConfigurationException(
                "The JTA TransactionSynchronizationRegistry cannot be looked up at '" + name + "' (" + cause
                        + "), although this server provides JTA transactions (" + USER_TRANSACTION + " resolves)."
                        + " Without it, guarded calls inside a transaction would store their outcome before the"
                        + " transaction ends, and a rollback would leave a stored success. Set '"
                        + GlobalSettings.TRANSACTION_REGISTRY
                        + "' to the JNDI name under which this server binds the registry (default "
                        + GlobalSettings.DEFAULT_TRANSACTION_REGISTRY + ").",
                e);
    }

    private static boolean serverHasJta() {
        try {
            return new InitialContext().lookup(USER_TRANSACTION) != null;
        } catch (NamingException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Reports the transaction the current thread runs in to {@code work}: none, or one whose end
     * {@code work} hears of. Called just before the method body runs.
     */
    @Override
    public void watch(WorkTransactions work) {
        switch (registry.getTransactionStatus()) {
            case Status.STATUS_ACTIVE -> {
                Object key = registry.getTransactionKey();
                if (work.ranIn(key)) {
                    try {
                        registry.registerInterposedSynchronization(new Ending(work, key));
                    } catch (IllegalStateException e) {
                        // The transaction is ending already: its outcome cannot be heard, so count the
                        // work as durable rather than risk running it twice.
                        LOG.log(Level.DEBUG, "cannot follow the transaction of a guarded call: {0}", e.toString());
                        work.ended(key, true);
                    }
                }
            }
            case Status.STATUS_MARKED_ROLLBACK, Status.STATUS_ROLLING_BACK, Status.STATUS_ROLLEDBACK -> {
                Object key = registry.getTransactionKey();
                if (work.ranIn(key)) {
                    work.ended(key, false);
                }
            }
            default -> work.ranWithoutTransaction();
        }
    }

    @Override
    public void afterWork(Runnable onCommit, Runnable onRollback) {
        int status = registry.getTransactionStatus();
        switch (status) {
            case Status.STATUS_ACTIVE -> registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // Nothing to do before: the outcome is final only once the transaction is.
                }

                @Override
                public void afterCompletion(int outcome) {
                    if (committed(outcome)) {
                        onCommit.run();
                    } else {
                        onRollback.run();
                    }
                }
            });
            case Status.STATUS_MARKED_ROLLBACK, Status.STATUS_ROLLING_BACK, Status.STATUS_ROLLEDBACK -> onRollback
                    .run();
            default -> onCommit.run();
        }
    }

    /** Tells a call's work how one of its transactions ended. */
    private record Ending(WorkTransactions work, Object key) implements Synchronization {

        @Override
        public void beforeCompletion() {
            // The outcome is known only after completion.
        }

        @Override
        public void afterCompletion(int status) {
            work.ended(key, committed(status));
        }
    }

    /**
     * Whether an ended transaction may have committed: anything but a rollback (a heuristic or unknown
     * outcome included) counts as committed, since running committed work again is the worse error.
     */
    static boolean committed(int status) {
        return status != Status.STATUS_ROLLEDBACK;
    }
}
