package dev.idempotency.stores.infinispan;

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

    private static byte[] snapshot(RecordSet set) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        set.writeContentTo(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }
}
