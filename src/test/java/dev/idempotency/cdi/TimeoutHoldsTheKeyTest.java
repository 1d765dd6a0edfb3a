package dev.idempotency.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyInProgressException;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * A timeout ends the caller's wait, not the work: the key stays claimed while the work may still
 * run, so a retry is refused as for a running call and the work runs once. The guard cannot see when
 * such work ends, so the claim is held until its lease ends; a {@code releaseOn} naming the timeout
 * still wins.
 */
@EnableWeld
class TimeoutHoldsTheKeyTest {

    private static final long WAIT_SECONDS = 30;

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), TimeoutService.class);

    @Inject
    TimeoutService service;

    /** One guarded call: its result, or what it threw (a stage's failure unwrapped). */
    @FunctionalInterface
    interface Call {
        Object run(String id) throws Exception;
    }

    private static String key() {
        return "t-" + System.nanoTime();
    }

    @Test
    void aStageBoundedByOrTimeoutHoldsTheKeyWhileItsWorkRuns() throws Exception {
        assertHeldUntilTheLeaseEnds(id -> stageOutcome(service.stage(id)), TimeoutException.class);
    }

    @Test
    void aSynchronousMethodThatTimesOutUncheckedHoldsTheKey() throws Exception {
        assertHeldUntilTheLeaseEnds(id -> service.joined(id), CompletionException.class);
    }

    @Test
    void aCheckedTimeoutIsNotKeptButHoldsTheKey() throws Exception {
        assertHeldUntilTheLeaseEnds(id -> service.checked(id), TimeoutException.class);
    }

    @Test
    void aFaultToleranceTimeoutHoldsTheKey() throws Exception {
        assertHeldUntilTheLeaseEnds(
                id -> service.faultTolerance(id),
                org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException.class);
    }

    @Test
    void releaseOnNamingTheTimeoutStillReleases() throws Exception {
        String id = key();
        assertThat(outcome(id, i -> stageOutcome(service.released(i)))).isInstanceOf(TimeoutException.class);
        assertThat(outcome(id, i -> stageOutcome(service.released(i))))
                .as("the user's releaseOn decides before the timeout rule")
                .isInstanceOf(TimeoutException.class);
        assertThat(service.runs(id)).as("released: the retry ran").isEqualTo(2);
        service.finish(id);
    }

    private void assertHeldUntilTheLeaseEnds(Call call, Class<? extends Throwable> timeout) throws Exception {
        String id = key();
        assertThat(outcome(id, call)).as("the first call times out").isInstanceOf(timeout);

        assertThat(outcome(id, call))
                .as("a retry while the timed-out work still runs")
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(service.runs(id)).as("executions while the first work runs").isEqualTo(1);

        service.finish(id);
        awaitEquals(1, () -> service.ended(id), "the first work's end");
        assertThat(outcome(id, call))
                .as("a retry after the work ended: its end was not observable, so the claim is held")
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(service.runs(id)).isEqualTo(1);

        // Once the lease ends, the key is free: the next retry runs (and its work, let through, ends in time).
        Object after = awaitNotInProgress(id, call);
        assertThat(after).isEqualTo(id + "-run-2");
        assertThat(service.runs(id)).isEqualTo(2);
    }

    private static Object stageOutcome(CompletionStage<?> stage) throws Exception {
        try {
            return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    private static Object outcome(String id, Call call) {
        try {
            return call.run(id);
        } catch (Exception e) {
            return e;
        }
    }

    private static Object awaitNotInProgress(String id, Call call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        Object seen;
        do {
            seen = outcome(id, call);
            if (!(seen instanceof IdempotencyInProgressException)) {
                return seen;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the claim was still held " + WAIT_SECONDS + " s later, beyond its lease "
                + TimeoutService.LEASE + "; last outcome: " + seen);
    }

    private static void awaitEquals(int expected, IntSupplier actual, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (actual.getAsInt() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        what + ": expected " + expected + " within " + WAIT_SECONDS + " s, saw " + actual.getAsInt());
            }
            Thread.sleep(20);
        }
    }
}
