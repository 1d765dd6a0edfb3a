package dev.idempotency.it.app;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Guarded methods whose caller stops waiting after {@link #TIMEOUT_MILLIS} while their work goes on
 * for {@link #WORK_MILLIS} and then writes its effect row ({@link Effects}): the work ignores the
 * interrupt a timeout may send, as a blocking JDBC or HTTP call does. Their lease is shorter than the
 * work, so only a claim kept past the lease (renewed until the body ends, or held) keeps a retry from
 * running the work again.
 *
 * <p>The Fault Tolerance methods are guarded on every server; where the server has no MicroProfile
 * Fault Tolerance their FT annotations are absent at run time and they run as plain methods.
 */
@ApplicationScoped
public class TimedCharges {

    /** How long the caller waits. */
    public static final long TIMEOUT_MILLIS = 200;

    /** How long the work runs before it writes its effect row. */
    public static final long WORK_MILLIS = 1_000;

    /** The operations' lease: shorter than the work. */
    public static final String LEASE = "PT1S";

    @Inject
    Effects effects;

    @Inject
    ExecutionCounter counter;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /** The work's stage bounded by {@code orTimeout}: the guard sees the timeout, not the work's end. */
    @Idempotent(name = "it.timed.or-timeout", lease = LEASE)
    public CompletionStage<String> orTimeout(@IdempotencyKey String id) {
        return CompletableFuture.supplyAsync(() -> work(id), executor).orTimeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Fault Tolerance runs it on its own thread and fails the caller's stage at the timeout. */
    @Idempotent(name = "it.timed.ft-async", lease = LEASE)
    @Asynchronous
    @Timeout(TIMEOUT_MILLIS)
    public CompletionStage<String> faultToleranceAsync(@IdempotencyKey String id) {
        return CompletableFuture.completedFuture(work(id));
    }

    /**
     * Fault Tolerance interrupts it at the timeout and throws its {@code TimeoutException} when it
     * returns: after the effect row was written.
     */
    @Idempotent(name = "it.timed.ft-sync", lease = LEASE)
    @Timeout(TIMEOUT_MILLIS)
    public String faultToleranceSync(@IdempotencyKey String id) {
        return work(id);
    }

    /** How many times the work of {@code id} started. */
    public int started(String id) {
        return counter.count("timed:" + id);
    }

    private String work(String id) {
        counter.ran("timed:" + id);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WORK_MILLIS);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                // A blocking call the timeout cannot stop: the work goes on.
            }
        }
        return "charged " + id + " #" + effects.write(id);
    }
}
