package dev.idempotency.it.toolkit.app;

import dev.idempotency.messaging.FailedMessage;
import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.messaging.MessageId;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A message consumer: counts runs per message; fails while asked to; observes failure reports. */
@ApplicationScoped
public class Billing {

    private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final List<FailedMessage> reports = new CopyOnWriteArrayList<>();

    /** Handles a payment message; fails on its first {@code failures} runs. */
    @IdempotentConsumer(name = "billing")
    public void onPayment(@MessageId String messageId, int failures) {
        int run = runs.computeIfAbsent(messageId, k -> new AtomicInteger()).incrementAndGet();
        if (run <= failures) {
            throw new IllegalStateException("run " + run + " fails");
        }
    }

    /** Runs of a message so far. */
    public int runs(String messageId) {
        AtomicInteger n = runs.get(messageId);
        return n == null ? 0 : n.get();
    }

    void failed(@Observes FailedMessage report) {
        reports.add(report);
    }

    /** Reports about a message: "<attempts>:<redelivery>" each. */
    public String reports(String messageId) {
        StringBuilder sb = new StringBuilder();
        for (FailedMessage r : reports) {
            if (r.messageId().equals(messageId)) {
                sb.append(r.attempts()).append(':').append(r.redelivery()).append(' ');
            }
        }
        return sb.toString().trim();
    }
}
