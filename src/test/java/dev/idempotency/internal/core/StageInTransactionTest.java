package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A {@code CompletionStage} method whose synchronous part ran in a transaction (an EJB's REQUIRED
 * default, {@code @Transactional}): that transaction has ended when the stage is returned. If it
 * committed, the work it holds must never run again, so a later failure of the stage is kept, even
 * an unchecked one; if it rolled back, the failure releases the key as usual.
 */
class StageInTransactionTest {

    static class Service {
        @Idempotent(name = "stage.tx")
        public CompletionStage<String> later(@IdempotencyKey String id) {
            return new CompletableFuture<>();
        }
    }

    private final AtomicInteger runs = new AtomicInteger();
    private final GuardedMethod guarded = plan();

    private static GuardedMethod plan() {
        try {
            Method m = Service.class.getMethod("later", String.class);
            OperationPolicy policy =
                    new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
            return GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** One call whose synchronous part ran in a transaction that ended as {@code committed} says. */
    private Throwable failLater(String id, boolean committed) throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        Object stage = guarded.invoke(new Object[] {id}, w -> {
            runs.incrementAndGet();
            w.ranIn("T-" + runs.get());
            w.ended("T-" + runs.get(), committed);
            return work;
        });
        work.completeExceptionally(new IllegalStateException("shipping failed, run " + runs.get()));
        return failure(stage);
    }

    private Throwable repeat(String id) throws Exception {
        return failure(guarded.invoke(new Object[] {id}, w -> {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ran again");
        }));
    }

    private static Throwable failure(Object stage) throws Exception {
        try {
            Object value = ((CompletionStage<?>) stage).toCompletableFuture().get(30, TimeUnit.SECONDS);
            throw new AssertionError("the stage completed with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    void anUncheckedFailureAfterTheTransactionCommittedIsKept() throws Exception {
        assertThat(failLater("c", true)).hasMessage("shipping failed, run 1");
        assertThat(repeat("c"))
                .as("kept: the committed synchronous part must not run again")
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("shipping failed, run 1");
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void anUncheckedFailureAfterTheTransactionRolledBackReleases() throws Exception {
        assertThat(failLater("r", false)).hasMessage("shipping failed, run 1");
        Object retry = guarded.invoke(new Object[] {"r"}, w -> {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ran again");
        });
        assertThat(((CompletionStage<?>) retry).toCompletableFuture().get(30, TimeUnit.SECONDS))
                .as("released: the retry ran")
                .isEqualTo("ran again");
        assertThat(runs.get()).isEqualTo(2);
    }
}
