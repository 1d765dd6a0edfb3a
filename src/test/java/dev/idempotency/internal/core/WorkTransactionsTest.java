package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The settlement rule of a call's work: durable if any part committed or ran outside a transaction. */
class WorkTransactionsTest {

    private final List<String> settled = new ArrayList<>();

    private void settle(Settlement s) {
        s.afterWork(() -> settled.add("commit"), () -> settled.add("rollback"));
    }

    @Test
    void nothingReachedRanInNoTransaction() {
        WorkTransactions w = new WorkTransactions();
        assertThat(w.reached()).isFalse();
        assertThat(w.ranInTransaction()).isFalse();
    }

    @Test
    void workOutsideATransactionIsDurableAtOnce() {
        WorkTransactions w = new WorkTransactions();
        w.ranWithoutTransaction();
        settle(w);
        assertThat(settled).containsExactly("commit");
    }

    @Test
    void aPendingTransactionDecidesWhenItEndsExactlyOnce() {
        WorkTransactions w = new WorkTransactions();
        assertThat(w.ranIn("T")).isTrue();
        assertThat(w.ranIn("T")).as("the same transaction is reported once").isFalse();
        settle(w);
        assertThat(settled).isEmpty();
        w.ended("T", false);
        w.ended("T", true);
        assertThat(settled).containsExactly("rollback");
    }

    @Test
    void everyTransactionMustEndAndOneCommitIsEnough() {
        WorkTransactions w = new WorkTransactions();
        w.ranIn("A");
        w.ranIn("B");
        settle(w);
        w.ended("A", true);
        assertThat(settled).as("B has not ended").isEmpty();
        w.ended("B", false);
        assertThat(settled).containsExactly("commit");
    }

    @Test
    void transactionsOnlyIgnoresWorkOutsideThem() {
        WorkTransactions w = new WorkTransactions();
        w.ranWithoutTransaction();
        w.ranIn("T");
        w.ended("T", false);
        settle(w.transactionsOnly());
        assertThat(settled).containsExactly("rollback");
    }

    @Test
    void anEndOnAnotherThreadSettlesTheWaitingCall() throws Exception {
        WorkTransactions w = new WorkTransactions();
        w.ranIn("T");
        CompletableFuture<String> outcome = new CompletableFuture<>();
        w.afterWork(() -> outcome.complete("commit"), () -> outcome.complete("rollback"));
        CompletableFuture.runAsync(() -> w.ended("T", true));
        assertThat(outcome.get(30, TimeUnit.SECONDS)).isEqualTo("commit");
    }

    private final List<String> bodies = new ArrayList<>();

    private void recordBody(Object value, Throwable failure) {
        bodies.add(failure == null ? "value " + value : "failure " + failure.getMessage());
    }

    @Test
    void noBodySeenStartingHasNoOutcomeToWaitFor() {
        WorkTransactions w = new WorkTransactions();
        assertThat(w.afterBody(this::recordBody)).isFalse();
        w.bodyEnded("late", null);
        assertThat(bodies).as("a body end nobody saw start is ignored").isEmpty();
    }

    @Test
    void aBodyThatEndedHandsItsOutcomeAtOnce() {
        WorkTransactions w = new WorkTransactions();
        w.bodyStarted();
        w.bodyEnded("r", null);
        assertThat(w.afterBody(this::recordBody)).isTrue();
        assertThat(bodies).containsExactly("value r");
    }

    @Test
    void aRunningBodyHandsItsOutcomeWhenItEndsOnce() {
        WorkTransactions w = new WorkTransactions();
        w.bodyStarted();
        assertThat(w.afterBody(this::recordBody)).isTrue();
        assertThat(bodies).as("still running").isEmpty();
        w.bodyEnded(null, new IllegalStateException("boom"));
        w.bodyEnded("again", null);
        assertThat(bodies).containsExactly("failure boom");
    }

    @Test
    void withSeveralAttemptsTheLastToEndDecidesAndAValueWins() {
        WorkTransactions w = new WorkTransactions();
        w.bodyStarted();
        w.bodyStarted();
        assertThat(w.afterBody(this::recordBody)).isTrue();
        w.bodyEnded("first", null);
        assertThat(bodies).as("one attempt still runs").isEmpty();
        w.bodyEnded(null, new IllegalStateException("second"));
        assertThat(bodies).as("an attempt returned: its effect is there").containsExactly("value first");
    }
}
