package demo;

import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageId;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A message consumer as docs/toolkit.md has it: each message processed once. */
@ApplicationScoped
public class Billing {

    @Inject
    Executions executions;

    /** Counts one processing of the message; throws while {@code failures} is above the attempt. */
    @IdempotentConsumer(name = "billing", maxAttempts = 2)
    public void onRepayment(@MessageId String serialNo, boolean fail) {
        executions.ran("billing", serialNo);
        if (fail) {
            throw new IllegalStateException("repayment " + serialNo + " could not be booked");
        }
    }
}
