package dev.idempotency.internal.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInput;
import java.io.DataOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.protocols.raft.AppendEntriesRequest;
import org.jgroups.protocols.raft.InMemoryLog;
import org.jgroups.protocols.raft.LogEntries;
import org.jgroups.protocols.raft.LogEntry;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.StateMachine;
import org.jgroups.stack.Protocol;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.Util;
import org.junit.jupiter.api.Test;

/**
 * A follower that holds entries a deposed leader appended but no majority stored, fed the appends a
 * new leader sends, as RAFT's single thread would. jgroups-raft's own {@code RAFT} (the control)
 * applies such an entry to its state machine; {@link VerifyingRaft} applies only what the new leader's
 * log holds (the defect of atomix/copycat #265 and rabbitmq/ra #508).
 */
class VerifyingRaftTest {

    private static final Address OLD_LEADER = leader("A");
    private static final Address NEW_LEADER = leader("C");

    /** What the follower's state machine applied, in order. */
    private final List<String> applied = new ArrayList<>();

    private RAFT follower(RAFT raft) throws Exception {
        InMemoryLog log = new InMemoryLog();
        log.init(
                "verifying-raft-test-" + System.nanoTime() + "-"
                        + raft.getClass().getSimpleName(),
                Map.of());
        raft.raftId("B").members(List.of("A", "B", "C")).log(log).stateMachine(new StateMachine() {
            @Override
            public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) {
                applied.add(new String(data, offset, length, StandardCharsets.UTF_8));
                return null;
            }

            @Override
            public void readContentFrom(DataInput in) {}

            @Override
            public void writeContentTo(DataOutput out) {}
        });
        raft.setDownProtocol(new Protocol() {
            @Override
            public Object down(Message msg) {
                return null; // the follower's answers: not needed here
            }
        });
        return raft;
    }

    private static Address leader(String raftId) {
        return ExtendedUUID.randomUUID(raftId).put(RAFT.raft_id_key, Util.stringToBytes(raftId));
    }

    private static LogEntries entries(long term, String... commands) {
        LogEntries e = new LogEntries();
        for (String c : commands) {
            e.add(new LogEntry(term, c.getBytes(StandardCharsets.UTF_8)));
        }
        return e;
    }

    /** An append from {@code leader} in {@code term}; {@code entries} null is a commit message. */
    private static void append(
            RAFT raft,
            Address leader,
            long term,
            long prevIndex,
            long prevTerm,
            LogEntries entries,
            long leaderCommit) {
        long entryTerm = entries == null ? term : entries.iterator().next().term();
        raft.handleUpRequest(
                new ObjectMessage(null, entries).setSrc(leader),
                new AppendEntriesRequest(leader, term, prevIndex, prevTerm, entryTerm, leaderCommit));
    }

    /**
     * The old leader (term 1) had 1 and 2 committed and appended "stale-3" to this follower only; the
     * new leader (term 2) committed its own 3 and 4 without it, then sends its commit message (no
     * entries, no previous entry named, commit index 4).
     */
    private void staleEntryThenCommitMessage(RAFT raft) {
        append(raft, OLD_LEADER, 1, 0, 0, entries(1, "1", "2", "stale-3"), 2);
        append(raft, NEW_LEADER, 2, 0, 0, null, 4);
    }

    @Test
    void theControlAppliesTheDeposedLeadersEntryOnACommitMessage() throws Exception {
        staleEntryThenCommitMessage(follower(new RAFT()));
        assertThat(applied).containsExactly("1", "2", "stale-3");
    }

    @Test
    void aCommitMessageCommitsOnlyWhatTheNewLeaderSentAndItsEntriesReplaceTheStaleOne() throws Exception {
        RAFT raft = follower(new VerifyingRaft());
        staleEntryThenCommitMessage(raft);
        assertThat(applied).containsExactly("1", "2");
        assertThat(raft.commitIndex()).isEqualTo(2);

        append(raft, NEW_LEADER, 2, 2, 1, entries(2, "new-3", "new-4"), 4);
        assertThat(applied).containsExactly("1", "2", "new-3", "new-4");
        assertThat(raft.commitIndex()).isEqualTo(4);
        assertThat(raft.lastAppended()).isEqualTo(4);
    }

    /**
     * The follower holds the old leader's 3, 4 and 5 (term 1); the new leader holds 3 as well (it got it
     * too) but not 4 and 5, and appends its own 4 (term 2). Its resend of 3 finds 3 already here.
     * Answering "my log matches yours up to 5", as the control does, let the new leader count this
     * follower for its own 4 and send it a commit that applies the old 4 and 5.
     */
    private void sharedEntryThenCommit(RAFT raft) {
        append(raft, OLD_LEADER, 1, 0, 0, entries(1, "1", "2", "3", "old-4", "old-5"), 2);
        append(raft, NEW_LEADER, 2, 2, 1, entries(1, "3"), 3);
        append(raft, NEW_LEADER, 2, 0, 0, null, 5);
    }

    @Test
    void theControlAppliesEntriesBeyondTheOneItWasSent() throws Exception {
        sharedEntryThenCommit(follower(new RAFT()));
        assertThat(applied).containsExactly("1", "2", "3", "old-4", "old-5");
    }

    @Test
    void anEntryAlreadyHereVerifiesOnlyUpToItself() throws Exception {
        RAFT raft = follower(new VerifyingRaft());
        sharedEntryThenCommit(raft);
        assertThat(applied).containsExactly("1", "2", "3");
        append(raft, NEW_LEADER, 2, 3, 1, entries(2, "new-4"), 5);
        assertThat(applied).containsExactly("1", "2", "3", "new-4");
        assertThat(raft.lastAppended()).as("the old 5 went with the old 4").isEqualTo(4);
    }

    @Test
    void aPreviousEntryOfAnotherTermIsAConflictThatDeletesTheStaleRunAndNothingCommitted() throws Exception {
        RAFT raft = follower(new VerifyingRaft());
        append(raft, OLD_LEADER, 1, 0, 0, entries(1, "1", "2", "stale-3", "stale-4"), 2);
        // The new leader's 3 and 4 are of term 2: its append of 5 names 4 of term 2.
        append(raft, NEW_LEADER, 2, 4, 2, entries(2, "new-5"), 5);
        assertThat(raft.lastAppended()).as("the stale run from 3 on is gone").isEqualTo(2);
        assertThat(applied).containsExactly("1", "2");
        append(raft, NEW_LEADER, 2, 2, 1, entries(2, "new-3", "new-4", "new-5"), 5);
        assertThat(applied).containsExactly("1", "2", "new-3", "new-4", "new-5");
    }
}
