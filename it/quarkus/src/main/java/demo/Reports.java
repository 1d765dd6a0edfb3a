package demo;

import dev.idempotency.lock.ClusterLock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A job under a cluster lock: a call while another holds the lock is skipped. */
@ApplicationScoped
public class Reports {

    @Inject
    Executions executions;

    /** Counts one run for {@code ref}, then holds the lock for {@code holdMillis}. */
    @ClusterLock(name = "nightly-report", atMostFor = "PT1M")
    public void run(String ref, long holdMillis) throws InterruptedException {
        executions.ran("reports", ref);
        Thread.sleep(holdMillis);
    }
}
