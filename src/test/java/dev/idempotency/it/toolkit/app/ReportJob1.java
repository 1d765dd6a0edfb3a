package dev.idempotency.it.toolkit.app;

import dev.idempotency.lock.ClusterLock;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;

/**
 * One of two singletons whose timers fire every second and share the lock "report": together they
 * would run the job twice a second; the lock lets it run once per two-second window.
 */
@Singleton
public class ReportJob1 {

    @Inject
    JobRuns runs;

    /** The job: 200 ms of work. Declares no checked exception: EJB timeout methods must not (Open Liberty refuses them). */
    @Schedule(second = "*/1", minute = "*", hour = "*", persistent = false)
    @ClusterLock(name = "report", atMostFor = "PT30S", atLeastFor = "PT2S")
    public void report() {
        int run = runs.start(1);
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            runs.end(run);
        }
    }
}
