package demo;

import dev.idempotency.lock.ClusterLock;
import dev.idempotency.messaging.IdempotentConsumer;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Toolkit methods the library refuses (built only with -Pbad-toolkit): a cluster-locked job that returns a
 * value, and a message handler without a {@code @MessageId} parameter. The build must fail naming both.
 */
@ApplicationScoped
public class BrokenJobs {

    /** A skipped run would have no result to return. */
    @ClusterLock(name = "broken-report", atMostFor = "PT1M")
    public String report() {
        return "report";
    }

    /** No parameter says which message this is. */
    @IdempotentConsumer(name = "broken-billing")
    public void onMessage(String body) {}
}
