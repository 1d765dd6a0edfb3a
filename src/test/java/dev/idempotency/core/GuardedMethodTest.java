package dev.idempotency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.spi.DelegatingStore;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.stores.memory.MemoryIdempotencyStore;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A guarded call inside a transaction is settled by the transaction's end, not by the return. */
class GuardedMethodTest {

    static class Service {
        @Idempotent(name = "svc.book")
        public String book(@IdempotencyKey String id) {
            return id;
        }
    }

    /** A transaction that the test commits or rolls back by hand. */
    static final class ManualTransaction implements Settlement {
        final List<Runnable> onCommit = new ArrayList<>();
        final List<Runnable> onRollback = new ArrayList<>();

        @Override
        public void afterWork(Runnable commit, Runnable rollback) {
            onCommit.add(commit);
            onRollback.add(rollback);
        }

        void commit() {
            onCommit.forEach(Runnable::run);
            onCommit.clear();
            onRollback.clear();
        }

        void rollback() {
            onRollback.forEach(Runnable::run);
            onCommit.clear();
            onRollback.clear();
        }
    }

    /** JSON-B cannot serialize a value that refers to itself. */
    public static class Loop {
        public Loop self = this;
    }

    static class Odd {
        @Idempotent(name = "svc.odd")
        public String take(Loop loop) {
            return "ran";
        }
    }

    @Test
    void argumentsThatCannotBeFingerprintedFailClearlyWithoutRunning() throws Exception {
        Method m = Odd.class.getMethod("take", Loop.class);
        OperationPolicy policy = new PolicyResolver(Settings.none()).resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
        assertThatThrownBy(() -> g.invoke(new Object[] {new Loop()}, () -> "run-" + runs.incrementAndGet()))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("svc.odd")
                .hasMessageContaining("did not run");
        assertThat(runs.get()).isZero();
    }

    private final ManualTransaction tx = new ManualTransaction();
    private final AtomicInteger runs = new AtomicInteger();

    private GuardedMethod guarded() throws NoSuchMethodException {
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(Settings.none()).resolve(m, m.getAnnotation(Idempotent.class));
        return GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()), tx);
    }

    private Object call(GuardedMethod g, String id) throws Exception {
        return g.invoke(new Object[] {id}, () -> "run-" + runs.incrementAndGet());
    }

    @Test
    void theOutcomeIsStoredOnlyWhenTheTransactionCommits() throws Exception {
        GuardedMethod g = guarded();
        assertThat(call(g, "a")).isEqualTo("run-1");
        assertThatThrownBy(() -> call(g, "a"))
                .as("until commit the key is still in progress")
                .isInstanceOf(IdempotencyInProgressException.class);
        tx.commit();
        assertThat(call(g, "a")).isEqualTo("run-1");
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void aStoreThatJoinsTheCallersTransactionCompletesInsideIt() throws Exception {
        IdempotencyStore joining = new DelegatingStore(new MemoryIdempotencyStore()) {
            @Override
            public boolean joinsCallerTransaction(String operation) {
                return operation.equals("svc.book");
            }
        };
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(Settings.none()).resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(joining), tx);
        assertThat(call(g, "c")).isEqualTo("run-1");
        assertThat(tx.onCommit).as("nothing deferred to after the commit").isEmpty();
        assertThat(call(g, "c")).as("completed within the transaction").isEqualTo("run-1");
    }

    @Test
    void aRollbackReleasesTheKeySoTheRetryRunsAgain() throws Exception {
        GuardedMethod g = guarded();
        assertThat(call(g, "b")).isEqualTo("run-1");
        tx.rollback();
        assertThat(call(g, "b")).isEqualTo("run-2");
        tx.commit();
        assertThat(call(g, "b")).isEqualTo("run-2");
    }
}
