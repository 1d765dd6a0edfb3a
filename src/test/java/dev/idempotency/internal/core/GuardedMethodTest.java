package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.JoiningStore;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    static class Basket {
        @Idempotent(name = "svc.basket")
        public String fill(@IdempotencyKey String id, String[] items) {
            return id;
        }
    }

    @Test
    void anArrayArgumentHoldingNullIsFingerprintedAndGuarded() throws Exception {
        Method m = Basket.class.getMethod("fill", String.class, String[].class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
        Object[] args = {"b1", new String[] {"apple", null}};
        assertThat(g.invoke(args, w -> "run-" + runs.incrementAndGet())).isEqualTo("run-1");
        assertThat(g.invoke(args, w -> "run-" + runs.incrementAndGet()))
                .as("replayed")
                .isEqualTo("run-1");
        assertThatThrownBy(() -> g.invoke(
                        new Object[] {"b1", new String[] {"apple", "pear"}}, w -> "run-" + runs.incrementAndGet()))
                .as("other items under the same key are a mismatch")
                .isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void argumentsThatCannotBeFingerprintedFailClearlyWithoutRunning() throws Exception {
        Method m = Odd.class.getMethod("take", Loop.class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
        assertThatThrownBy(() -> g.invoke(new Object[] {new Loop()}, w -> "run-" + runs.incrementAndGet()))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("svc.odd")
                .hasMessageContaining("did not run");
        assertThat(runs.get()).isZero();
    }

    private final ManualTransaction tx = new ManualTransaction();
    private final AtomicInteger runs = new AtomicInteger();

    private GuardedMethod guarded() throws NoSuchMethodException {
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        return GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()), tx);
    }

    private Object call(GuardedMethod g, String id) throws Exception {
        return g.invoke(new Object[] {id}, w -> "run-" + runs.incrementAndGet());
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
        IdempotencyStore joining = new JoiningStore(new MemoryIdempotencyStore());
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(
                        ConfigLookup.of(Map.of(Service.class.getName() + "/book/Idempotent/transaction", "joined")))
                .resolve(m, m.getAnnotation(Idempotent.class));
        assertThat(policy.joined()).isTrue();
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(joining), tx);
        assertThat(call(g, "c")).isEqualTo("run-1");
        assertThat(tx.onCommit).as("nothing deferred to after the commit").isEmpty();
        assertThat(call(g, "c")).as("completed within the transaction").isEqualTo("run-1");
    }

    /**
     * A joined store that cannot write the record in the caller's transaction (an outage, or the claim
     * was taken over) fails the call, so that the transaction rolls back: committing the work without
     * its record would let a retry run it again (the Infinispan cluster's chaos run found that double).
     */
    @Test
    void aJoinedStoreThatCannotStoreTheOutcomeFailsTheCallSoItsTransactionRollsBack() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> mode = new java.util.concurrent.atomic.AtomicReference<>();
        IdempotencyStore joining = new JoiningStore(new MemoryIdempotencyStore()) {
            @Override
            public boolean complete(String key, String owner, byte[] outcome, java.time.Duration ttl) {
                if (mode.get().equals("outage")) {
                    throw new IdempotencyStoreUnavailableException(null, null, "no leader", null);
                }
                return false; // taken over meanwhile
            }
        };
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.of(Map.of("Idempotent/transaction", "JOINED")))
                .resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(joining), tx);
        for (String ending : List.of("outage", "taken over")) {
            mode.set(ending);
            int before = runs.get();
            assertThatThrownBy(() -> call(g, "j-" + ending))
                    .as("a call whose record could not be written (%s)", ending)
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("rolls back");
            assertThat(runs.get())
                    .as("it ran, and its transaction is to roll back")
                    .isEqualTo(before + 1);
        }
    }

    /**
     * A joined call whose work marked its transaction for rollback (a failed flush, a nested
     * {@code @Transactional} method that threw): the store writes nothing, so the caller gets the body's
     * own exception object, or its value (its container rolls back at commit), never "store unavailable";
     * the claim ends with the rollback and a retry runs.
     */
    @Test
    void aJoinedCallWhoseTransactionRollsBackHandsOnItsOwnOutcome() throws Exception {
        IdempotencyStore joining = new JoiningStore(new MemoryIdempotencyStore()) {
            @Override
            public boolean complete(
                    dev.idempotency.spi.GuardedOperation operation,
                    String key,
                    String owner,
                    byte[] outcome,
                    java.time.Duration ttl) {
                release(key, owner); // what the rollback does to the claim
                throw new dev.idempotency.spi.CallerTransactionRollingBackException(operation.name(), 1);
            }
        };
        Method m = Service.class.getMethod("book", String.class);
        OperationPolicy policy = new PolicyResolver(ConfigLookup.of(Map.of("Idempotent/transaction", "JOINED")))
                .resolve(m, m.getAnnotation(Idempotent.class));
        GuardedMethod g = GuardedMethod.plan(m, policy, new IdempotencyEngine(joining), tx);
        IllegalStateException own = new IllegalStateException("duplicate row on flush");
        for (int attempt = 1; attempt <= 2; attempt++) {
            assertThatThrownBy(() -> g.invoke(new Object[] {"r"}, w -> {
                        runs.incrementAndGet();
                        throw own;
                    }))
                    .as("attempt %d: the body's own exception, unchanged", attempt)
                    .isSameAs(own);
            assertThat(runs.get()).as("the retry ran the body again").isEqualTo(attempt);
        }
        assertThat(call(g, "r"))
                .as("a value, though its transaction rolls back")
                .isEqualTo("run-3");
        assertThat(call(g, "r")).as("nothing was stored: the retry runs").isEqualTo("run-4");
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

    // ------------------------------------------------------------------ settled by the work's own transactions

    private final List<WorkTransactions> seen = new ArrayList<>();

    /** A call whose body reports, through its WorkTransactions, what {@code body} says. */
    private Object callWith(GuardedMethod g, String id, java.util.function.Consumer<WorkTransactions> body)
            throws Exception {
        return g.invoke(new Object[] {id}, w -> {
            seen.add(w);
            body.accept(w);
            return "run-" + runs.incrementAndGet();
        });
    }

    @Test
    void aRequiresNewTransactionThatCommittedIsFinalWhateverTheCallersTransactionDoes() throws Exception {
        GuardedMethod g = guarded();
        assertThat(callWith(g, "n", w -> {
                    w.ranIn("T2");
                    w.ended("T2", true);
                }))
                .isEqualTo("run-1");
        assertThat(tx.onCommit)
                .as("not bound to the transaction around the guard")
                .isEmpty();
        tx.rollback();
        assertThat(call(g, "n")).as("the committed work is replayed").isEqualTo("run-1");
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void workWithoutATransactionIsFinalWhenTheMethodReturns() throws Exception {
        GuardedMethod g = guarded();
        assertThat(callWith(g, "w", WorkTransactions::ranWithoutTransaction)).isEqualTo("run-1");
        tx.rollback();
        assertThat(call(g, "w")).isEqualTo("run-1");
    }

    @Test
    void theWorksOwnPendingTransactionDecides() throws Exception {
        GuardedMethod g = guarded();
        assertThat(callWith(g, "p", w -> w.ranIn("T1"))).isEqualTo("run-1");
        assertThatThrownBy(() -> call(g, "p"))
                .as("in progress until the work's transaction ends")
                .isInstanceOf(IdempotencyInProgressException.class);
        seen.get(0).ended("T1", false);
        assertThat(call(g, "p")).as("rolled back: released, the retry runs").isEqualTo("run-2");
    }

    @Test
    void anUncheckedExceptionIsKeptWhenTheWorkItInterruptedCommitted() throws Exception {
        GuardedMethod g = guarded();
        java.util.concurrent.Callable<Object> failing = () -> g.invoke(new Object[] {"x"}, w -> {
            w.ranIn("T");
            w.ended("T", true);
            throw new IllegalStateException("declined after the debit, run " + runs.incrementAndGet());
        });
        assertThatThrownBy(failing::call).hasMessage("declined after the debit, run 1");
        assertThatThrownBy(failing::call)
                .as("kept: its transaction committed the method's work")
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("declined after the debit, run 1");
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void anUncheckedExceptionReleasesWhenTheWorkRolledBack() throws Exception {
        GuardedMethod g = guarded();
        assertThatThrownBy(() -> g.invoke(new Object[] {"y"}, w -> {
                    seen.add(w);
                    w.ranIn("T");
                    runs.incrementAndGet();
                    throw new IllegalStateException("failed");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> call(g, "y"))
                .as("in progress until the work's transaction ends")
                .isInstanceOf(IdempotencyInProgressException.class);
        seen.get(0).ended("T", false);
        assertThat(call(g, "y")).as("rolled back: released, the retry runs").isEqualTo("run-2");
    }

    @Test
    void anUncheckedExceptionWithoutATransactionReleasesAtOnce() throws Exception {
        GuardedMethod g = guarded();
        assertThatThrownBy(() -> g.invoke(new Object[] {"v"}, w -> {
                    w.ranWithoutTransaction();
                    runs.incrementAndGet();
                    throw new IllegalStateException("failed");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(call(g, "v")).isEqualTo("run-2");
    }
}
