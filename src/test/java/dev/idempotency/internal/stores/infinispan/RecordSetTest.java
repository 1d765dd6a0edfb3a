package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RAFT state machine of the cluster store, fed commands as RAFT would: every member applies the
 * same commands in the same order and must reach the same state, and a snapshot must restore it.
 */
class RecordSetTest {

    private static final Instant T0 = Instant.parse("2026-11-25T12:00:00.123456789Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration TTL = Duration.ofHours(24);
    private static final Duration GRACE = Duration.ofHours(1);

    private final RecordSet members = new RecordSet();

    private static byte[] apply(RecordSet set, byte[] command) throws Exception {
        return set.apply(command, 0, command.length, true);
    }

    private byte[] apply(byte[] command) throws Exception {
        return apply(members, command);
    }

    private ClaimResult claim(String key, String owner, Instant now) throws Exception {
        return RecordSet.claimResult(apply(RecordSet.claim(key, owner, "fp-" + owner, now, LEASE)));
    }

    @Test
    void theSecondClaimOfAKeySeesTheFirstAndATakeoverNeedsTheLeaseToHaveEnded() throws Exception {
        assertThat(claim("k", "a", T0).claimed()).isTrue();
        ClaimResult second = claim("k", "b", T0.plusSeconds(29));
        assertThat(second.claimed()).isFalse();
        assertThat(second.record().owner()).isEqualTo("a");
        ClaimResult takeover = claim("k", "c", T0.plus(LEASE));
        assertThat(takeover.claimed()).isTrue();
        assertThat(takeover.replaced().owner()).isEqualTo("a");
        // The old owner is fenced: its complete changes nothing.
        assertThat(RecordSet.booleanResult(apply(RecordSet.complete("k", "a", new byte[] {1}, T0, TTL, false))))
                .isFalse();
        assertThat(members.local("k").owner()).isEqualTo("c");
    }

    @Test
    void aCompleteSentAgainAfterALostAnswerAcceptsItsOwnCompletedRecordAndNothingElse() throws Exception {
        claim("k", "a", T0);
        byte[] complete = RecordSet.complete("k", "a", new byte[] {7}, T0, TTL, false);
        assertThat(RecordSet.booleanResult(apply(complete))).isTrue();
        assertThat(RecordSet.booleanResult(apply(complete)))
                .as("a second complete of one owner, as the SPI says")
                .isFalse();
        assertThat(RecordSet.booleanResult(apply(RecordSet.complete("k", "a", new byte[] {7}, T0, TTL, true))))
                .as("a retry after a lost answer")
                .isTrue();
        assertThat(RecordSet.booleanResult(apply(RecordSet.complete("k", "b", new byte[] {7}, T0, TTL, true))))
                .as("another owner, even as a retry")
                .isFalse();
    }

    @Test
    void onlyACommandThatEndsARunningClaimTellsTheSettlementListener() throws Exception {
        List<String> told = new ArrayList<>();
        members.onSettled(told::add);
        claim("done", "a", T0);
        apply(RecordSet.renew("done", "a", T0.plusSeconds(1), LEASE));
        apply(RecordSet.complete("done", "b", new byte[] {1}, T0, TTL, false)); // not the owner
        apply(RecordSet.complete("done", "a", new byte[] {1}, T0, TTL, false));
        apply(RecordSet.complete("done", "a", new byte[] {1}, T0, TTL, true)); // a retry: already done
        apply(RecordSet.delete("done", "a"));
        claim("released", "a", T0);
        apply(RecordSet.release("released", "b"));
        apply(RecordSet.release("released", "a"));
        apply(RecordSet.release("released", "a"));
        claim("prepared", "a", T0);
        apply(RecordSet.prepare("prepared", "a", new byte[] {2}, T0, TTL));
        apply(RecordSet.commitPrepared("prepared", "a", T0, TTL, false));
        apply(RecordSet.purge(T0.plus(TTL).plus(GRACE).plusSeconds(1), GRACE, 10));
        assertThat(told).containsExactly("done", "released", "prepared");
    }

    @Test
    void aListenerThatThrowsDoesNotFailTheCommand() throws Exception {
        members.onSettled(key -> {
            throw new IllegalStateException("a broken listener");
        });
        claim("k", "a", T0);
        assertThat(RecordSet.booleanResult(apply(RecordSet.complete("k", "a", new byte[] {1}, T0, TTL, false))))
                .isTrue();
        assertThat(members.local("k").status()).isEqualTo(RecordStatus.COMPLETED);
    }

    @Test
    void aPreparedClaimHoldsItsKeyUntilItsTransactionEnds() throws Exception {
        claim("k", "a", T0);
        byte[] outcome = {1, 2, 3};
        assertThat(RecordSet.booleanResult(apply(RecordSet.prepare("k", "a", outcome, T0.plusSeconds(1), TTL))))
                .isTrue();
        IdempotencyRecord prepared = members.local("k");
        assertThat(prepared.status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(prepared.outcome())
                .as("not replayed before its transaction committed")
                .isNull();
        assertThat(prepared.expiresAt()).isEqualTo(T0.plusSeconds(1).plus(TTL));
        // Long after the lease: still nobody's to take, its transaction may have committed.
        assertThat(claim("k", "b", T0.plus(LEASE).plusSeconds(60)).claimed()).isFalse();

        assertThat(RecordSet.booleanResult(apply(RecordSet.commitPrepared("k", "a", T0.plusSeconds(2), TTL, false))))
                .isTrue();
        IdempotencyRecord done = members.local("k");
        assertThat(done.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(done.outcome()).isEqualTo(outcome);
        assertThat(done.expiresAt()).isEqualTo(T0.plusSeconds(2).plus(TTL));
        assertThat(RecordSet.booleanResult(apply(RecordSet.commitPrepared("k", "a", T0.plusSeconds(3), TTL, true))))
                .as("a commit sent again after a lost answer")
                .isTrue();
    }

    @Test
    void aRolledBackPreparedClaimIsReleasedAndItsOutcomeForgotten() throws Exception {
        claim("k", "a", T0);
        apply(RecordSet.prepare("k", "a", new byte[] {1}, T0, TTL));
        assertThat(RecordSet.booleanResult(apply(RecordSet.release("k", "a")))).isTrue();
        assertThat(members.local("k")).isNull();
        // A new claim and a commit that names it without a prepare: nothing to commit.
        claim("k", "b", T0.plusSeconds(1));
        assertThat(RecordSet.booleanResult(apply(RecordSet.commitPrepared("k", "b", T0, TTL, false))))
                .isFalse();
        assertThat(members.local("k").status()).isEqualTo(RecordStatus.IN_PROGRESS);
    }

    @Test
    void aPrepareOfAClaimTakenOverMeanwhileIsRefused() throws Exception {
        claim("k", "a", T0);
        claim("k", "b", T0.plus(LEASE));
        assertThat(RecordSet.booleanResult(apply(RecordSet.prepare("k", "a", new byte[] {1}, T0, TTL))))
                .isFalse();
        assertThat(members.local("k").owner()).isEqualTo("b");
    }

    @Test
    void aPurgeDeletesWhatEndedSmallestKeysFirstAndKeepsAClaimThroughItsGrace() throws Exception {
        for (String k : List.of("k3", "k1", "k2")) {
            claim(k, "o", T0);
            apply(RecordSet.complete(k, "o", new byte[] {1}, T0, Duration.ofSeconds(1), false));
        }
        claim("running", "o", T0);
        Instant later = T0.plusSeconds(60);
        assertThat(members.hasDead(later, GRACE)).isTrue();
        assertThat(RecordSet.intResult(apply(RecordSet.purge(later, GRACE, 2)))).isEqualTo(2);
        assertThat(members.local("k1")).isNull();
        assertThat(members.local("k2")).isNull();
        assertThat(members.local("k3")).isNotNull();
        assertThat(RecordSet.intResult(apply(RecordSet.purge(later, GRACE, 10))))
                .isEqualTo(1);
        assertThat(members.local("running"))
                .as("its lease ended, its grace did not")
                .isNotNull();
        assertThat(members.hasDead(later, GRACE)).isFalse();
        assertThat(RecordSet.intResult(apply(RecordSet.purge(T0.plus(LEASE).plus(GRACE), GRACE, 10))))
                .isEqualTo(1);
        assertThat(members.size()).isZero();
    }

    @Test
    void membersThatApplyTheSameCommandsReachTheSameStateAndASnapshotRestoresIt() throws Exception {
        List<byte[]> log = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String k = "key-" + (i % 17);
            Instant now = T0.plusSeconds(i);
            log.add(RecordSet.claim(k, "o" + i, "fp", now, LEASE));
            if (i % 3 == 0) {
                log.add(RecordSet.complete(k, "o" + i, new byte[] {(byte) i}, now, TTL, false));
            } else if (i % 3 == 1) {
                log.add(RecordSet.prepare(k, "o" + i, new byte[] {(byte) i}, now, TTL));
            } else {
                log.add(RecordSet.release(k, "o" + i));
            }
            if (i % 10 == 9) {
                log.add(RecordSet.purge(now, GRACE, 3));
            }
        }
        log.add(RecordSet.claim("fresh", "p", "fp", T0, LEASE));
        log.add(RecordSet.prepare("fresh", "p", new byte[] {42}, T0, TTL));
        RecordSet other = new RecordSet();
        List<String> answersHere = new ArrayList<>();
        List<String> answersThere = new ArrayList<>();
        for (byte[] c : log) {
            answersHere.add(java.util.Arrays.toString(apply(c)));
            answersThere.add(java.util.Arrays.toString(apply(other, c)));
        }
        assertThat(answersThere).isEqualTo(answersHere);
        assertThat(snapshot(other)).isEqualTo(snapshot(members));

        RecordSet restored = new RecordSet();
        byte[] image = snapshot(members);
        restored.readContentFrom(new DataInputStream(new ByteArrayInputStream(image)));
        assertThat(snapshot(restored)).isEqualTo(image);
        assertThat(restored.size()).isEqualTo(members.size()).isPositive();
        for (int i = 0; i < 17; i++) {
            assertThat(restored.local("key-" + i)).isEqualTo(members.local("key-" + i));
        }
        // The prepared outcomes came along: a commit on the restored member completes with them.
        byte[] commit = RecordSet.commitPrepared("fresh", "p", T0, TTL, false);
        assertThat(RecordSet.booleanResult(apply(restored, commit))).isTrue();
        assertThat(restored.local("fresh").outcome()).containsExactly(42);
    }

    private RecordSet.Bounded claimWithin(String key, String owner, Instant now, long maxEntries, long maxBytes)
            throws Exception {
        return RecordSet.boundedResult(
                apply(RecordSet.claimWithin(key, owner, "fp-" + owner, now, LEASE, maxEntries, maxBytes)));
    }

    private static ClaimResult decided(RecordSet.Bounded answer) {
        assertThat(answer).isInstanceOf(RecordSet.Decided.class);
        return ((RecordSet.Decided) answer).result();
    }

    @Test
    void aFullSetRefusesNewKeysOnlyAndDropsNothing() throws Exception {
        long unbounded = Long.MAX_VALUE;
        assertThat(decided(claimWithin("k1", "a", T0, 2, unbounded)).claimed()).isTrue();
        assertThat(decided(claimWithin("k2", "b", T0, 2, unbounded)).claimed()).isTrue();
        apply(RecordSet.complete("k1", "a", new byte[] {1}, T0, TTL, false));

        assertThat(claimWithin("k3", "c", T0, 2, unbounded))
                .as("a third key while two records are live")
                .isEqualTo(new RecordSet.Full(2, 2 * RecordSet.RECORD_OVERHEAD_BYTES + 1));
        assertThat(members.local("k3")).isNull();
        ClaimResult replay = decided(claimWithin("k1", "c", T0, 2, unbounded));
        assertThat(replay.claimed()).isFalse();
        assertThat(replay.record().outcome()).as("a replay is served when full").containsExactly(1);
        assertThat(decided(claimWithin("k2", "c", T0, 2, unbounded)).claimed())
                .as("a duplicate of a running call")
                .isFalse();
        assertThat(decided(claimWithin("k2", "c", T0.plus(LEASE), 2, unbounded)).claimed())
                .as("a takeover of an ended lease creates no record")
                .isTrue();
        assertThat(members.size()).isEqualTo(2);

        apply(RecordSet.delete("k1", "a"));
        assertThat(decided(claimWithin("k3", "c", T0, 2, unbounded)).claimed())
                .as("room again once a record is gone")
                .isTrue();
    }

    @Test
    void theByteLimitCountsOutcomesAndNeverRefusesACompletion() throws Exception {
        long max = 2 * RecordSet.RECORD_OVERHEAD_BYTES + 100;
        assertThat(decided(claimWithin("k1", "a", T0, 10, max)).claimed()).isTrue();
        assertThat(decided(claimWithin("k2", "b", T0, 10, max)).claimed()).isTrue();
        assertThat(RecordSet.booleanResult(apply(RecordSet.complete("k1", "a", new byte[500], T0, TTL, false))))
                .as("a completion past the limit: the call already ran")
                .isTrue();
        assertThat(members.bytes()).isEqualTo(2 * RecordSet.RECORD_OVERHEAD_BYTES + 500);
        assertThat(claimWithin("k3", "c", T0, 10, max))
                .isEqualTo(new RecordSet.Full(2, 2 * RecordSet.RECORD_OVERHEAD_BYTES + 500));
        apply(RecordSet.release("k2", "b"));
        assertThat(decided(claimWithin("k3", "c", T0, 10, max + 500)).claimed()).isTrue();
    }

    @Test
    void aClaimWrittenBeforeTheLimitsExistedStillAppliesUnbounded() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(claim("k" + i, "a", T0).claimed()).isTrue();
        }
        assertThat(claimWithin("k9", "a", T0, 3, Long.MAX_VALUE)).isInstanceOf(RecordSet.Full.class);
    }

    @Test
    void aRenewalOfAPreparedClaimKeepsItsOutcomeAside() throws Exception {
        claim("k", "a", T0);
        apply(RecordSet.prepare("k", "a", new byte[] {9}, T0, TTL));
        assertThat(RecordSet.booleanResult(apply(RecordSet.renew("k", "a", T0.plusSeconds(5), LEASE))))
                .isTrue();
        assertThat(RecordSet.booleanResult(apply(RecordSet.commitPrepared("k", "a", T0, TTL, false))))
                .isTrue();
        assertThat(members.local("k").outcome()).containsExactly(9);
    }

    /**
     * Any sequence of commands leaves the byte count equal to a recount from scratch (what a member
     * restored from a snapshot counts), so members that joined by snapshot and members that applied
     * the log refuse the same claims.
     */
    @net.jqwik.api.Property(tries = 300)
    void theByteCountAlwaysEqualsARecount(
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.Size(max = 60)
                    List<@net.jqwik.api.constraints.IntRange(max = 7999) Integer> steps)
            throws Exception {
        RecordSet set = new RecordSet();
        for (int step : steps) {
            String k = "k" + (step % 5);
            String owner = "o" + (step / 5 % 3);
            Instant now = T0.plusSeconds(step / 15 % 8 * 20L);
            byte[] outcome = new byte[step % 7 * 10];
            byte[] command =
                    switch (step / 1000) {
                        case 0 -> RecordSet.claimWithin(k, owner, "fp", now, LEASE, 4, 3_000);
                        case 1 -> RecordSet.complete(k, owner, outcome, now, TTL, step % 2 == 0);
                        case 2 -> RecordSet.prepare(k, owner, outcome, now, TTL);
                        case 3 -> RecordSet.commitPrepared(k, owner, now, TTL, step % 2 == 0);
                        case 4 -> RecordSet.renew(k, owner, now, LEASE);
                        case 5 -> RecordSet.release(k, owner);
                        case 6 -> RecordSet.delete(k, owner);
                        default -> RecordSet.purge(now.plus(TTL), Duration.ZERO, step % 3);
                    };
            apply(set, command);
            RecordSet restored = new RecordSet();
            restored.readContentFrom(new DataInputStream(new ByteArrayInputStream(snapshot(set))));
            assertThat(set.bytes()).as("after %s", steps).isEqualTo(restored.bytes());
        }
    }

    private static byte[] snapshot(RecordSet set) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        set.writeContentTo(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }
}
