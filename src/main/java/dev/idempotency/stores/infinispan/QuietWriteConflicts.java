package dev.idempotency.stores.infinispan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps Infinispan from logging, above DEBUG, the write conflicts that the store handles.
 *
 * <p>When two calls claim a new key at the same instant, on any nodes, the optimistic transaction
 * of the later one fails Infinispan's write-skew check at prepare: that is how the cluster decides
 * who won, and the store answers the loser from the winner's record. Infinispan logs such a
 * rollback itself at DEBUG when the check fails locally (ISPN-2076), but a check that failed on a
 * remote owner comes back wrapped in a {@code RemoteException}, and then five components report the
 * same handled rollback, with stack traces, on two nodes: ISPN000255 ({@code TransactionCoordinator},
 * ERROR), ISPN000924 ({@code TransactionImpl}, ERROR), ISPN000136 ({@code
 * InvocationContextInterceptor}, ERROR) and ISPN000160 ({@code InvocationHelper}, WARN) on the node
 * that made the call, ISPN000071 ({@code org.infinispan.CLUSTER}, WARN) on the owner that checked.
 *
 * <p>This filter, put on exactly those five {@code java.util.logging} loggers (JBoss Logging's
 * backend when no other logging library is present, as on Payara), drops a record only if
 *
 * <ol>
 *   <li>its exception, or any cause or suppressed exception of it, is Infinispan's {@code
 *       WriteSkewException}; or
 *   <li>it is {@code InvocationHelper}'s ISPN000160 for a {@code RollbackException}: the implicit
 *       transaction was rolled back because its prepare had failed, a failure that ISPN000255 and
 *       ISPN000924 already report with its cause (and rule 1 judges), and the caller receives the
 *       exception anyway.
 * </ol>
 *
 * <p>Everything else those loggers say passes, at its level: a prepare that timed out, a minority
 * partition, every membership message of {@code org.infinispan.CLUSTER}. A write that fails for any
 * other reason than a conflict is also logged by the store itself (WARNING, with the key's hash).
 *
 * <p>Installed while at least one store started by {@link InfinispanStores#start} is open (a cache
 * manager the application supplies keeps the application's logging untouched). A filter that is
 * already on a logger keeps working: records this one does not drop go on to it. If another
 * deployment's copy of this class is already there, it is left alone (it drops the same records)
 * and nothing is stacked on it, so that no deployment's class loader is kept by another's logger.
 */
final class QuietWriteConflicts {

    /** The loggers (JBoss Logging categories) that report a rolled-back optimistic transaction. */
    static final List<String> LOGGERS = List.of(
            "org.infinispan.transaction.impl.TransactionCoordinator", // ISPN000255, caller
            "org.infinispan.commons.tx.TransactionImpl", // ISPN000924, caller
            "org.infinispan.interceptors.impl.InvocationContextInterceptor", // ISPN000136, caller
            "org.infinispan.cache.impl.InvocationHelper", // ISPN000160, caller
            "org.infinispan.CLUSTER"); // ISPN000071, owner (also membership messages: those pass)

    private static final String WRITE_SKEW = "org.infinispan.transaction.WriteSkewException";
    private static final String INVOCATION_HELPER = "org.infinispan.cache.impl.InvocationHelper";

    private static final LongAdder DROPPED = new LongAdder();

    private static int users;

    /** The installed filters; they also keep their loggers, which the log manager holds weakly. */
    private static final List<ConflictFilter> installed = new ArrayList<>();

    private QuietWriteConflicts() {}

    /** Installs the filters for one more store; every call is matched by one {@link #release()}. */
    static synchronized void acquire() {
        if (users++ > 0) {
            return;
        }
        for (String name : LOGGERS) {
            Logger logger = Logger.getLogger(name);
            Filter current = logger.getFilter();
            if (current != null && current.getClass().getName().equals(ConflictFilter.class.getName())) {
                continue; // another deployment's copy already drops these records
            }
            ConflictFilter filter = new ConflictFilter(logger, current);
            logger.setFilter(filter);
            installed.add(filter);
        }
    }

    /** Removes the filters when the last store that {@link #acquire() acquired} them closes. */
    static synchronized void release() {
        if (users == 0 || --users > 0) {
            return;
        }
        for (ConflictFilter filter : installed) {
            // Someone who replaced our filter meanwhile keeps theirs.
            if (filter.logger.getFilter() == filter) {
                filter.logger.setFilter(filter.next);
            }
        }
        installed.clear();
    }

    /** How many records the filters dropped in this class loader, for tests. */
    static long dropped() {
        return DROPPED.sum();
    }

    /** Whether a record of the named logger only reports a write conflict that the store handles. */
    static boolean reportsHandledConflict(String logger, LogRecord record) {
        Throwable thrown = record.getThrown();
        if (INVOCATION_HELPER.equals(logger)
                && thrown != null
                && thrown.getClass().getSimpleName().equals("RollbackException")) {
            return true;
        }
        return holdsWriteSkew(thrown, 0);
    }

    private static boolean holdsWriteSkew(Throwable t, int depth) {
        if (t == null || depth > 16) {
            return false;
        }
        // By name: a WriteSkewException of another deployment's Infinispan is the same event.
        if (t.getClass().getName().equals(WRITE_SKEW)) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (holdsWriteSkew(s, depth + 1)) {
                return true;
            }
        }
        return t.getCause() != t && holdsWriteSkew(t.getCause(), depth + 1);
    }

    private static final class ConflictFilter implements Filter {
        final Logger logger;
        final Filter next;

        ConflictFilter(Logger logger, Filter next) {
            this.logger = logger;
            this.next = next;
        }

        @Override
        public boolean isLoggable(LogRecord record) {
            if (reportsHandledConflict(logger.getName(), record)) {
                DROPPED.increment();
                return false;
            }
            return next == null || next.isLoggable(record);
        }
    }
}
