package dev.idempotency.stores.infinispan;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Silences, wholesale, the loggers with which Infinispan reports an optimistic transaction that lost
 * a race (ISPN000255, ISPN000924 and ISPN000160 on the node that made the call, ISPN000136 and
 * ISPN000071 on the primary owner that checked it), for the topology test, whose churn of joins and
 * leaves makes those components report more than the handled conflicts that the store's own filter
 * ({@link QuietWriteConflicts}) drops. Closing restores the previous levels.
 */
final class QuietLostRaces implements AutoCloseable {

    private static final String[] LOGGERS = {
        "org.infinispan.transaction.impl.TransactionCoordinator",
        "org.infinispan.commons.tx.TransactionImpl",
        "org.infinispan.cache.impl.InvocationHelper",
        "org.infinispan.interceptors.impl.InvocationContextInterceptor",
        "org.infinispan.CLUSTER", // ISPN000071 (it also carries membership messages)
    };

    // Strong references: java.util.logging keeps loggers weakly, and a collected logger forgets its level.
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> previous = new ArrayList<>();

    QuietLostRaces() {
        for (String name : LOGGERS) {
            Logger logger = Logger.getLogger(name);
            loggers.add(logger);
            previous.add(logger.getLevel());
            logger.setLevel(Level.OFF);
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).setLevel(previous.get(i));
        }
    }
}
