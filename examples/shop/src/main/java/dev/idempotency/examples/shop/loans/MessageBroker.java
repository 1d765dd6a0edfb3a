package dev.idempotency.examples.shop.loans;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A stand-in for the message broker of seed 001, which redelivers a message when the consumer's
 * acknowledgement is lost. It delivers one message several times <em>at once</em>, each delivery on
 * its own container-managed thread, as competing consumers on several nodes would receive it.
 *
 * <p>A real application receives messages in a message-driven bean or a Kafka/JMS consumer method;
 * the guarded {@link RepaymentConsumer#onMessage} is written exactly as it would be there.
 */
@ApplicationScoped
public class MessageBroker {

    /** Deliveries of one message are bounded so that the demo cannot be used to exhaust threads. */
    public static final int MAX_DELIVERIES = 50;

    /** Thread-safe; one for the application, so that delivering does not build a new one each time. */
    private static final Jsonb JSON = JsonbBuilder.create();

    @Resource
    ManagedThreadFactory threads;

    @Inject
    RepaymentConsumer consumer;

    @Inject
    LoanService loans;

    /**
     * Delivers the message {@code times} times concurrently and reports what each delivery got.
     *
     * @param message the message
     * @param times 1 to {@link #MAX_DELIVERIES}
     * @return the report
     * @throws InterruptedException when the caller is interrupted while deliveries run
     */
    public DeliveryReport deliver(RepaymentMessage message, int times) throws InterruptedException {
        AtomicReferenceArray<String> outcomes = new AtomicReferenceArray<>(times);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        try {
            for (int i = 0; i < times; i++) {
                int n = i;
                Thread t = threads.newThread(() -> {
                    try {
                        start.await();
                        outcomes.set(n, JSON.toJson(consumer.onMessage(message)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        outcomes.set(n, "interrupted");
                    } catch (Exception e) {
                        outcomes.set(n, e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                });
                t.start();
                running.add(t);
            }
            // Released together, so the deliveries really overlap.
            start.countDown();
            for (Thread t : running) {
                t.join(60_000);
            }
        } finally {
            // If starting a later thread failed, the ones already started must not wait for the gate forever.
            start.countDown();
        }
        List<String> all = new ArrayList<>(times);
        for (int i = 0; i < times; i++) {
            all.add(Objects.requireNonNullElse(outcomes.get(i), "still running after 60 s"));
        }
        long settlements = loans.entries(message.loanId()).stream()
                .filter(e ->
                        e.serialNo().equals(message.serialNo()) && e.source().equals(message.source()))
                .count();
        return new DeliveryReport(
                times, all, all.stream().distinct().count(), settlements, loans.find(message.loanId()));
    }
}
