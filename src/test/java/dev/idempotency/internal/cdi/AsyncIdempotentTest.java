package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * {@code CompletionStage} methods in Weld: the claim is held until the returned stage completes; its
 * value or exception is then settled by the usual rules and replayed as a completed stage.
 */
@EnableWeld
class AsyncIdempotentTest {

    private static final long WAIT_SECONDS = 30;

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), AsyncService.class);

    @Inject
    AsyncService service;

    private static String key() {
        return "a-" + System.nanoTime();
    }

    private static <T> T value(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletionStage<?> stage) throws Exception {
        try {
            stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the stage completed normally");
    }

    @Test
    void theClaimIsHeldUntilTheStageCompletesThenTheValueIsReplayed() throws Exception {
        String id = key();
        CompletionStage<String> first = service.later(id);
        assertThat(first.toCompletableFuture()).isNotDone();

        CompletionStage<String> duplicate = service.later(id);
        assertThat(failure(duplicate))
                .as("a repeat while the stage is pending is rejected, through its stage")
                .isInstanceOf(IdempotencyInProgressException.class);

        service.finish(id, "paid");
        assertThat(value(first)).isEqualTo("paid-run-1");
        // The caller's stage completes only after the outcome is stored: a retry at once replays.
        CompletionStage<String> replay = service.later(id);
        assertThat(replay.toCompletableFuture()).isCompleted();
        assertThat(value(replay)).isEqualTo("paid-run-1");
        assertThat(service.runs(id)).isEqualTo(1);
    }

    @Test
    void aGenericValueIsReplayedWithItsType() throws Exception {
        String id = key();
        CompletionStage<List<OrderLine>> first = service.lines(id);
        service.finish(id, "book");
        List<OrderLine> lines = value(first);
        List<OrderLine> replayed = value(service.lines(id));
        assertThat(replayed).isEqualTo(lines);
        assertThat(replayed.get(0)).isInstanceOf(OrderLine.class);
        assertThat(service.runs(id)).isEqualTo(1);
    }

    @Test
    void aCheckedFailureOfTheStageIsKeptAndReplayedAsAFailedStage() throws Exception {
        String id = key();
        CompletionStage<String> first = service.later(id);
        service.fail(id, new PaymentDeclined("card expired"));
        assertThat(failure(first)).isInstanceOf(PaymentDeclined.class).hasMessage("card expired");

        CompletionStage<String> replay = service.later(id);
        assertThat(failure(replay)).isExactlyInstanceOf(PaymentDeclined.class).hasMessage("card expired");
        assertThat(service.runs(id)).isEqualTo(1);
    }

    @Test
    void anUncheckedFailureOfTheStageReleasesTheKey() throws Exception {
        String id = key();
        CompletionStage<String> first = service.later(id);
        service.fail(id, new IllegalStateException("gateway timeout"));
        assertThat(failure(first)).isInstanceOf(IllegalStateException.class);

        service.reset(id);
        CompletionStage<String> retry = service.later(id);
        service.finish(id, "paid");
        assertThat(value(retry)).isEqualTo("paid-run-2");
        assertThat(service.runs(id)).isEqualTo(2);
    }

    @Test
    void aMethodThatThrowsBeforeReturningAStageThrowsAndReleases() {
        String id = key();
        assertThatThrownBy(() -> service.throwsAtOnce(id)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> service.throwsAtOnce(id)).isInstanceOf(IllegalStateException.class);
        assertThat(service.runs(id)).as("released: the retry ran").isEqualTo(2);
    }

    @Test
    void aWaitingRepeatGetsTheOutcomeOnceTheStageCompletes() throws Exception {
        String id = key();
        CompletableFuture<String> first = service.waiting(id);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<CompletableFuture<String>> duplicate = pool.submit(() -> service.waiting(id));
            // The repeat blocks while the first stage is pending; give it time to show it does.
            assertThatThrownBy(() -> duplicate.get(300, TimeUnit.MILLISECONDS))
                    .as("the repeat waits for the pending stage")
                    .isInstanceOf(TimeoutException.class);
            service.finish(id, "shipped");
            assertThat(value(first)).isEqualTo("shipped-run-1");
            CompletableFuture<String> replay = duplicate.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(value(replay)).isEqualTo("shipped-run-1");
            assertThat(service.runs(id)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void theRetryHintOfARejectedRepeatIsShort() throws Exception {
        String id = key();
        CompletionStage<String> first = service.later(id);
        Throwable rejected = failure(service.later(id));
        assertThat(rejected)
                .isInstanceOfSatisfying(IdempotencyInProgressException.class, e -> assertThat(e.retryAfter())
                        .as("idempotency.retry-after (1 s), not the lease (1 min)")
                        .isLessThanOrEqualTo(Duration.ofSeconds(1))
                        .isPositive());
        service.finish(id, "done");
        assertThat(value(first)).isEqualTo("done-run-1");
    }
}
