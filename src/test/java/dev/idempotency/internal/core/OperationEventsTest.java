package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyKeyMissingException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.DelegatingStore;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.StorePrimitive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every decision of the engine and of a guarded method reaches the operation's events, once. */
class OperationEventsTest {

    /** Records events as text, and store calls by primitive. */
    static final class Recorder extends RecordedEvents implements IdempotencyObserver {
        final List<String> storeCalls = Collections.synchronizedList(new ArrayList<>());
        final List<String> operations = Collections.synchronizedList(new ArrayList<>());

        @Override
        public OperationEvents operation(String name) {
            operations.add(name);
            return this;
        }

        @Override
        public boolean timesStoreCalls() {
            return true;
        }

        @Override
        public void storeCall(StorePrimitive primitive, long nanos, boolean failed) {
            assertThat(nanos).isNotNegative();
            storeCalls.add(primitive.tag() + (failed ? ":failed" : ""));
        }
    }

    static class Service {
        @Idempotent(name = "svc.charge", required = true)
        public String charge(@IdempotencyKey String id, int amount) {
            if (amount < 0) {
                throw new IllegalArgumentException("negative");
            }
            return id + ":" + amount;
        }
    }

    private static OperationPolicy policy(Duration lease) {
        return new OperationPolicy(
                "svc.charge", Duration.ofHours(1), lease, InProgressPolicy.REJECT, ExceptionPolicy.DEFAULT, true);
    }

    @Test
    void aScriptedSequenceReportsEachOutcomeOnceAndTimesEveryStoreCall() throws Exception {
        Recorder recorder = new Recorder();
        IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore(), recorder);
        GuardedMethod g = GuardedMethod.plan(
                Service.class.getMethod("charge", String.class, int.class), policy(Duration.ofMinutes(1)), engine);
        assertThat(recorder.operations)
                .as("the handle is looked up once, at planning")
                .containsExactly("svc.charge");

        g.invoke(new Object[] {"a", 1}, work -> "a:1");
        g.invoke(new Object[] {"b", 1}, work -> "b:1");
        g.invoke(new Object[] {"a", 1}, work -> "ran again");
        assertThatThrownBy(() -> g.invoke(new Object[] {"a", 2}, work -> "other"))
                .isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThatThrownBy(() -> g.invoke(new Object[] {null, 1}, work -> "none"))
                .isInstanceOf(IdempotencyKeyMissingException.class);
        assertThatThrownBy(() -> g.invoke(new Object[] {"c", -1}, work -> {
                    throw new IllegalArgumentException("negative");
                }))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(recorder.events)
                .containsExactly(
                        "executed",
                        "executed",
                        "replayed",
                        "mismatch",
                        "key_missing",
                        "executed",
                        "released:exception");
        assertThat(recorder.operations).hasSize(1);
        assertThat(recorder.storeCalls)
                .containsExactly("claim", "complete", "claim", "complete", "claim", "claim", "claim", "release");
    }

    @Test
    void aConcurrentCallIsRefusedInProgressAndAnEndedLeaseIsATakeover() {
        Recorder recorder = new Recorder();
        MutableClock clock = new MutableClock();
        IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore(clock), recorder);
        OperationEvents events = engine.events("svc.charge");
        OperationPolicy policy = policy(Duration.ofSeconds(10));
        RecordKey key = RecordKey.of("svc.charge", "", "k");

        Admission.Owned first = (Admission.Owned) engine.begin(policy, key, "fp", events);
        assertThatThrownBy(() -> engine.begin(policy, key, "fp", events))
                .isInstanceOf(IdempotencyInProgressException.class);
        clock.advance(Duration.ofSeconds(11));
        Admission.Owned second = (Admission.Owned) engine.begin(policy, key, "fp", events);
        assertThat(second.tookOver()).isTrue();
        assertThat(engine.complete(first, new byte[] {1}))
                .as("the crashed owner's late outcome is fenced")
                .isFalse();
        assertThat(engine.complete(second, new byte[] {2})).isTrue();

        assertThat(recorder.events)
                .containsExactly("executed", "in_progress", "executed:takeover", "unstored:lease_lost");
    }

    @Test
    void aFailingStoreIsStoreUnavailableAndAFailedCompletionIsUnstored() {
        Recorder recorder = new Recorder();
        boolean[] broken = {false};
        DelegatingStore store = new DelegatingStore(new MemoryIdempotencyStore()) {
            @Override
            public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
                if (broken[0]) {
                    throw new IllegalStateException("connection refused");
                }
                return super.claim(key, owner, fingerprint, lease);
            }

            @Override
            public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
                throw new IllegalStateException("connection refused");
            }
        };
        IdempotencyEngine engine = new IdempotencyEngine(store, recorder);
        OperationPolicy policy = policy(Duration.ofMinutes(1));
        Admission.Owned owned = (Admission.Owned) engine.begin(policy, RecordKey.of("svc.charge", "", "x"), "fp");
        assertThat(engine.complete(owned, new byte[] {1})).isFalse();
        broken[0] = true;
        assertThatThrownBy(() -> engine.begin(policy, RecordKey.of("svc.charge", "", "y"), "fp"))
                .isInstanceOf(IdempotencyStoreUnavailableException.class);

        assertThat(recorder.events).containsExactly("executed", "unstored:store_failed", "store_unavailable");
        assertThat(recorder.storeCalls).containsExactly("claim", "complete:failed", "claim:failed");
    }

    @Test
    void aRollbackReleasesWithItsCause() throws Exception {
        Recorder recorder = new Recorder();
        IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore(), recorder);
        GuardedMethodTest.ManualTransaction tx = new GuardedMethodTest.ManualTransaction();
        GuardedMethod g = GuardedMethod.plan(
                Service.class.getMethod("charge", String.class, int.class), policy(Duration.ofMinutes(1)), engine, tx);
        g.invoke(new Object[] {"r", 1}, work -> "r:1");
        tx.rollback();
        assertThat(recorder.events).containsExactly("executed", "released:rollback");
    }

    @Test
    void withoutAnObserverNothingIsTimed() {
        IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore());
        assertThat(engine.observer()).isSameAs(IdempotencyObserver.NONE);
        assertThat(engine.events("any")).isSameAs(OperationEvents.NONE);
        assertThat(IdempotencyObserver.NONE.timesStoreCalls()).isFalse();
    }
}
