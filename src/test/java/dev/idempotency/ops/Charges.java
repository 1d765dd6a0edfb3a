package dev.idempotency.ops;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A guarded bean that counts its runs; {@link #hold} makes the next run wait, to make a 409. */
@ApplicationScoped
public class Charges {

    /** The operation name. */
    public static final String OPERATION = "ops.charge";

    final AtomicInteger runs = new AtomicInteger();
    volatile CountDownLatch running = new CountDownLatch(0);
    volatile CountDownLatch release = new CountDownLatch(0);

    /** An order reference declared as an interface: the key carries the value's class. */
    public interface OrderRef {
        /** The order's id. */
        String id();
    }

    /** The one implementation of {@link OrderRef}. */
    public record Ref(String id) implements OrderRef {}

    /** The operation keyed by an {@link OrderRef}. */
    public static final String BY_REF = "ops.charge-by-ref";

    /** Charges {@code amount} once per order reference. */
    @Idempotent(name = BY_REF, required = true)
    public String chargeByRef(@IdempotencyKey OrderRef ref, int amount) {
        return ref.id() + ":" + amount;
    }

    /** Charges {@code amount} once per id. */
    @Idempotent(name = OPERATION, required = true)
    public String charge(@IdempotencyKey String id, int amount) throws InterruptedException {
        runs.incrementAndGet();
        running.countDown();
        if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the held call");
        }
        return id + ":" + amount;
    }

    /** The next run signals {@code running} and waits for {@link #let}. */
    public CountDownLatch hold() {
        running = new CountDownLatch(1);
        release = new CountDownLatch(1);
        return running;
    }

    /** Lets the held run finish. */
    public void let() {
        release.countDown();
    }

    public int runs() {
        return runs.get();
    }
}
