package dev.idempotency.examples.shop.payments;

import dev.idempotency.lock.ClusterLock;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The settlement job of seed 002: every node of the shop runs the same timer, and each run pays out
 * the payments booked since the last run. Two nodes running it at once would pay a payment out twice:
 * the {@code @ClusterLock} lets one node run per window and the others skip.
 *
 * <p>{@code atLeastFor} keeps the lock after a quick run, so that a node whose timer fires a little
 * later in the same window finds it taken; {@code atMostFor} frees it if the node running the job
 * dies. The interval is {@code shop.settlement.interval} (the timer is created in code because
 * {@code @Schedule} values cannot come from configuration).
 */
@Singleton
@Startup
public class SettlementJob {

    private static final System.Logger LOG = System.getLogger(SettlementJob.class.getName());

    @Resource
    TimerService timers;

    @PersistenceContext(unitName = "shop")
    EntityManager em;

    @Inject
    @ConfigProperty(name = "shop.settlement.interval", defaultValue = "PT30S")
    Duration interval;

    private String node;

    @PostConstruct
    void schedule() {
        node = nodeName();
        long every = interval.toMillis();
        // Not persistent: a restarted node just starts its timer again; the lock is what coordinates.
        timers.createIntervalTimer(every, every, new TimerConfig("shop-settlement", false));
    }

    /**
     * One run: pays out every booked payment not yet in a batch, in this timer's transaction.
     * Skipped, without running, while another node (or an earlier run) holds the lock.
     */
    @Timeout
    @ClusterLock(name = "shop.settlement", atMostFor = "PT1M", atLeastFor = "PT2S")
    public void settle() {
        Instant started = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        PayoutBatch batch = new PayoutBatch(node, started);
        em.persist(batch);
        em.flush();
        List<Payment> due = em.createQuery("select p from Payment p where p.batchId is null", Payment.class)
                .getResultList();
        BigDecimal total = BigDecimal.ZERO;
        for (Payment p : due) {
            p.payOut(batch.id());
            total = total.add(p.amount());
        }
        batch.finish(due.size(), total, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        if (!due.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "settlement batch {0}: {1} payments", batch.id(), due.size());
        }
    }

    private static String nodeName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        return host + "/pid " + ProcessHandle.current().pid();
    }
}
