package dev.idempotency.cdi;

import dev.idempotency.core.Settlement;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger.Level;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Settles a guarded call with the JTA transaction it ran in: the outcome is stored after commit, and
 * the key released after rollback. This matters for EJBs, whose container-managed transaction
 * surrounds every interceptor, and for CDI methods when the interceptor priority is set above
 * {@code @Transactional}. Outside a transaction the outcome is stored at once.
 */
final class TransactionSettlement implements Settlement {

    private static final System.Logger LOG = System.getLogger(TransactionSettlement.class.getName());

    private final TransactionSynchronizationRegistry registry;

    private TransactionSettlement(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    /** The settlement for this environment: transactional where JTA is available, else immediate. */
    static Settlement lookup() {
        try {
            Object tsr = new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
            if (tsr instanceof TransactionSynchronizationRegistry r) {
                return new TransactionSettlement(r);
            }
        } catch (NamingException | RuntimeException | LinkageError e) {
            LOG.log(Level.DEBUG, "no JTA TransactionSynchronizationRegistry; outcomes are stored when methods return");
        }
        return Settlement.IMMEDIATE;
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
                    if (outcome == Status.STATUS_COMMITTED) {
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
}
