package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyInProgressException;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * run, so a retry is refused as for a running call and the work runs once. When the body itself timed
 * out, the guard cannot see when the work it waited for ends, so its outcome is unknown and the claim
 * is held for the operation's retention, past its lease. When the timeout came from outside the body
 * (Fault Tolerance's {@code @Timeout}, here {@link TimesOutInterceptor}), the body's own outcome
 * settles the key once it ends. A {@code releaseOn} naming the timeout still wins.
 */
@EnableWeld
class TimeoutHoldsTheKeyTest {

    private static final long WAIT_SECONDS = 30;

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), TimeoutService.class, TimesOutInterceptor.class);

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
        assertHeldForTheRetention(id -> stageOutcome(service.stage(id)), TimeoutException.class);
    }

    @Test
    void aSynchronousMethodThatTimesOutUncheckedHoldsTheKey() throws Exception {
        assertHeldForTheRetention(id -> service.joined(id), CompletionException.class);
    }

    @Test
    void aCheckedTimeoutIsNotKeptButHoldsTheKey() throws Exception {
        assertHeldForTheRetention(id -> service.checked(id), TimeoutException.class);
    }

    @Test
    void aFaultToleranceTimeoutHoldsTheKey() throws Exception {
        assertHeldForTheRetention(
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

    @Test
    void anAsynchronousTimeoutOutsideTheBodyStoresTheBodysResultOnceItEnds() throws Exception {
        String id = key();
        Call call = i -> stageOutcome(service.outsideAsync(i));
        assertThat(outcome(id, call)).as("the first call times out").isInstanceOf(FT_TIMEOUT);
        assertThat(outcome(id, call))
                .as("a retry while the body still runs")
                .isInstanceOf(IdempotencyInProgressException.class);

        service.finish(id);
        awaitOutcome(id, call, id + "-run-1", "a retry after the body ended: the body's result");
        assertThat(service.runs(id)).as("executions of the key").isEqualTo(1);
    }

    @Test
    void aTimeoutThrownWhenTheBodyReturnsStoresItsResult() throws Exception {
        String id = key();
        CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> outcome(id, service::outsideSync));
        awaitEquals(1, () -> service.runs(id), "the first call's body start");
        assertThat(outcome(id, service::outsideSync))
                .as("a retry while the body runs")
                .isInstanceOf(IdempotencyInProgressException.class);
        Thread.sleep(2 * TimesOutInterceptor.TIMEOUT_MILLIS); // the body runs past the timeout
        service.finish(id);
        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the first call")
                .isInstanceOf(FT_TIMEOUT);
        assertThat(outcome(id, service::outsideSync))
                .as("a retry: the body's result")
                .isEqualTo(id + "-run-1");
        assertThat(service.runs(id)).as("executions of the key").isEqualTo(1);
    }

    @Test
    void aBodyThatFailsAfterATimeoutOutsideItReleasesTheKey() throws Exception {
        String id = key();
        Call call = i -> stageOutcome(service.outsideFails(i));
        assertThat(outcome(id, call)).as("the first call times out").isInstanceOf(FT_TIMEOUT);
        assertThat(outcome(id, call))
                .as("a retry while the body still runs")
                .isInstanceOf(IdempotencyInProgressException.class);
        service.finish(id);
        awaitEquals(1, () -> service.ended(id), "the first work's end");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        Object retry;
        while ((retry = outcome(id, call)) instanceof IdempotencyInProgressException) {
            assertThat(System.nanoTime())
                    .as("the key released within " + WAIT_SECONDS + " s")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
        assertThat(retry).as("the retry ran and failed as the body does").isInstanceOf(IllegalStateException.class);
        assertThat(service.runs(id))
                .as("executions: the unchecked failure released the key")
                .isEqualTo(2);
    }

    private static final Class<org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException> FT_TIMEOUT =
            org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException.class;

    /** Retries until the outcome is {@code expected}; in progress meanwhile, for a bounded time. */
    private static void awaitOutcome(String id, Call call, Object expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        Object seen;
        while (!expected.equals(seen = outcome(id, call))) {
            if (!(seen instanceof IdempotencyInProgressException) || System.nanoTime() > deadline) {
                throw new AssertionError(
                        what + ": expected " + expected + " within " + WAIT_SECONDS + " s, saw " + seen);
            }
            Thread.sleep(20);
        }
    }

    private void assertHeldForTheRetention(Call call, Class<? extends Throwable> timeout) throws Exception {
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

        // Past the lease (and its renewals, which have stopped), the claim is still held.
        Thread.sleep(java.time.Duration.parse(TimeoutService.LEASE).toMillis() * 2);
        assertThat(outcome(id, call)).as("a retry two leases later").isInstanceOf(IdempotencyInProgressException.class);
        assertThat(service.runs(id)).as("executions of the key").isEqualTo(1);
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
