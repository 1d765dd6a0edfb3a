package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.internal.core.ResultFuture;
import dev.idempotency.internal.core.Settlement;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.DelegatingStore;
import jakarta.enterprise.concurrent.Asynchronous;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Jakarta Concurrency {@code @Asynchronous} method completes the very future its caller holds
 * ({@code Asynchronous.Result.complete}) from inside the body, that is inside the guard, whose
 * interceptor runs within the container's. The caller's future must still complete only after the
 * outcome is stored. The container is played here as GlassFish's Concurro plays it: the future is set
 * on the executor's thread around the interceptor chain, and a returned future that is not the
 * thread's completes the caller's.
 */
class ConcurrencyResultFutureTest {

    static class Bookings {
        @Asynchronous
        @Idempotent(name = "async.book")
        public CompletableFuture<String> book(@IdempotencyKey String id) {
            return Asynchronous.Result.complete("booked-" + id);
        }
    }

    private final ExecutorService container = Executors.newSingleThreadExecutor();
    private final AtomicInteger runs = new AtomicInteger();
    /** Counted down by the test once it made the second call; the store's complete waits for it. */
    private final CountDownLatch secondCallMade = new CountDownLatch(1);

    @AfterEach
    void stop() {
        container.shutdownNow();
    }

    @Test
    void aCallMadeAsSoonAsTheFutureCompletedGetsTheReplay() throws Exception {
        GuardedMethod plan = plan(new ConcurrencyResultFuture());
        CompletableFuture<Object> first = callAsynchronously(plan, "k1");
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("booked-k1");
        Object second = plan.invoke(new Object[] {"k1"}, w -> body("k1"));
        secondCallMade.countDown();
        assertThat(((CompletableFuture<?>) second)
                        .handle((v, f) -> f == null ? v : f.toString())
                        .get(10, TimeUnit.SECONDS))
                .as("a call made right after the first one's future completed")
                .isEqualTo("booked-k1");
        assertThat(runs).as("executions").hasValue(1);
    }

    @Test
    void aBodyThatReturnsAnotherFutureAlsoCompletesTheCallersAfterTheStore() throws Exception {
        GuardedMethod plan = plan(new ConcurrencyResultFuture());
        CompletableFuture<Object> callers = new CompletableFuture<>();
        container.submit(() -> inContainer(
                callers,
                () -> plan.invoke(new Object[] {"k2"}, w -> {
                    runs.incrementAndGet();
                    return CompletableFuture.completedFuture("other-k2");
                })));
        assertThat(callers.get(10, TimeUnit.SECONDS)).isEqualTo("other-k2");
        Object second = plan.invoke(new Object[] {"k2"}, w -> body("k2"));
        secondCallMade.countDown();
        assertThat(((CompletableFuture<?>) second).get(10, TimeUnit.SECONDS)).isEqualTo("other-k2");
        assertThat(runs).hasValue(1);
    }

    @Test
    void theCallersCancelReachesTheFutureTheBodySees() throws Exception {
        GuardedMethod plan = plan(new ConcurrencyResultFuture());
        CountDownLatch bodyStarted = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        CompletableFuture<Boolean> seen = new CompletableFuture<>();
        CompletableFuture<Object> callers = new CompletableFuture<>();
        container.submit(() -> inContainer(
                callers,
                () -> plan.invoke(new Object[] {"k3"}, w -> {
                    bodyStarted.countDown();
                    seen.complete(cancelled.await(10, TimeUnit.SECONDS)
                            && Asynchronous.Result.getFuture().isCancelled());
                    return Asynchronous.Result.getFuture();
                })));
        assertThat(bodyStarted.await(10, TimeUnit.SECONDS))
                .as("the body started")
                .isTrue();
        callers.cancel(true);
        cancelled.countDown();
        assertThat(seen.get(10, TimeUnit.SECONDS))
                .as("Asynchronous.Result.getFuture().isCancelled() in the body")
                .isTrue();
    }

    @Test
    void aGuardedMethodTheBodyCallsOnItsThreadLeavesTheContainersFutureAlone() throws Exception {
        ConcurrencyResultFuture results = new ConcurrencyResultFuture();
        Method plain = Plain.class.getMethod("book", String.class);
        assertThat(results.completedBy(plain)).isFalse();
        assertThat(results.completedBy(Bookings.class.getMethod("book", String.class)))
                .isTrue();
        assertThat(results.swap(new CompletableFuture<>()))
                .as("no @Asynchronous body on this thread")
                .isNull();
    }

    static class Plain {
        @Idempotent(name = "plain.book")
        public CompletableFuture<String> book(@IdempotencyKey String id) {
            return CompletableFuture.completedFuture(id);
        }
    }

    private Object body(String id) {
        runs.incrementAndGet();
        return Asynchronous.Result.complete("booked-" + id);
    }

    /** The caller's future of an {@code @Asynchronous} call, run as the container runs it. */
    private CompletableFuture<Object> callAsynchronously(GuardedMethod plan, String id) {
        CompletableFuture<Object> callers = new CompletableFuture<>();
        container.submit(() -> inContainer(callers, () -> plan.invoke(new Object[] {id}, w -> body(id))));
        return callers;
    }

    interface Chain {
        Object proceed() throws Exception;
    }

    /** What Concurro's AsynchronousInterceptor does on the executor's thread around the chain. */
    private static void inContainer(CompletableFuture<Object> callers, Chain chain) {
        Asynchronous.Result.setFuture(callers);
        try {
            CompletableFuture<?> returned = (CompletableFuture<?>) chain.proceed();
            if (returned != Asynchronous.Result.getFuture()) {
                try {
                    callers.complete(returned.get());
                } catch (ExecutionException e) {
                    callers.completeExceptionally(e.getCause());
                }
            }
        } catch (Exception e) {
            callers.completeExceptionally(e);
        } finally {
            Asynchronous.Result.setFuture(null);
        }
    }

    private GuardedMethod plan(ResultFuture results) throws NoSuchMethodException {
        Method m = Bookings.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        return GuardedMethod.plan(
                m, policy, new IdempotencyEngine(new SlowCompletion()), Settlement.IMMEDIATE, results);
    }

    /** Completes only once the second call was made, or after a bounded wait when it cannot be. */
    private final class SlowCompletion extends DelegatingStore {
        SlowCompletion() {
            super(new MemoryIdempotencyStore());
        }

        @Override
        public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
            try {
                // Before the fix the second call comes while this waits; after it, it cannot come first.
                secondCallMade.await(300, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.complete(key, owner, outcome, ttl);
        }
    }
}
