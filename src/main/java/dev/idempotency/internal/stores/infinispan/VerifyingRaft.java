package dev.idempotency.internal.stores.infinispan;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.raft.AppendEntriesRequest;
import org.jgroups.protocols.raft.AppendEntriesResponse;
import org.jgroups.protocols.raft.AppendResult;
import org.jgroups.protocols.raft.LogEntries;
import org.jgroups.protocols.raft.LogEntry;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.protocols.raft.RaftHeader;
import org.jgroups.raft.util.CommitTable;

/**
 * jgroups-raft's {@code RAFT} with a follower that commits only what it has verified against the
 * current leader's log, as the RAFT paper's receiver rules say (§5.3: "If leaderCommit > commitIndex,
 * set commitIndex = min(leaderCommit, index of last new entry)"). jgroups-raft 1.1.4 lets a follower
 * commit entries of its own log the leader never sent it, so a deposed leader could apply commands no
 * majority stored (seen by the chaos test; atomix/copycat #265 and rabbitmq/ra #508 fixed the same).
 *
 * <p>Its leader also tells each follower of a commit as soon as it has nothing else to do ({@link
 * #promptCommits}), so that followers apply commands, and wake the duplicates that wait for them,
 * within a round trip of the commit instead of at the next heartbeat.
 *
 * <p>The wire format, the protocol id and every other path are {@code RAFT}'s, so members with and
 * without this class interoperate. The rules: docs/internals.md, "The Infinispan cluster".
 */
public final class VerifyingRaft extends RAFT {

    private static final Field LEADER = field("leader");
    private static final Field PREV_INDEX = field("prev_log_index");
    private static final Field PREV_TERM = field("prev_log_term");
    private static final Field LEADER_COMMIT = field("leader_commit");

    /** The term in which {@link #verified} was established; a new term starts from the commit index. */
    private long verifiedTerm = -1;

    /** The last index at which this log is known to equal the current leader's. */
    private long verified;

    /** Whether the leader tells followers of commits at once ({@link #promptCommits}). */
    private volatile boolean promptCommits = true;

    /** The commit index last told each follower ({@link #announceCommits}), in {@link #announcedTerm}. */
    private final Map<Address, Long> announced = new HashMap<>();

    private long announcedTerm = -1;

    /** Created with {@code RAFT}'s protocol id: the same headers on the wire. */
    public VerifyingRaft() {
        setId(ClassConfigurator.getProtocolId(RAFT.class));
    }

    /**
     * Whether the leader tells each follower of a commit once its queue is empty (on by default). Off,
     * a follower learns of it with the next append, or at the heartbeat that follows a second without
     * requests ({@code resend_interval}): an idle cluster's followers then apply its last commands up
     * to a second late. jgroups-raft's own {@code send_commits_immediately}, which sends on every
     * answer of a follower, floods the leader's queue under load (measured: "processing queue is
     * full" with 16 callers); this sends at most one message per follower and commit.
     */
    public VerifyingRaft promptCommits(boolean on) {
        promptCommits = on;
        return this;
    }

    /** Only ever called by RAFT's single processing thread. */
    @Override
    protected void process(List<Request> requests) {
        super.process(requests);
        if (promptCommits) {
            announceCommits();
        }
    }

    /**
     * As leader with nothing queued: sends each follower that has not applied all it could the commit
     * index, as an append without entries (RAFT's own heartbeat). What a follower can commit is what
     * it verified ({@code matchIndex}), so one that has not yet received the append of the last commit
     * is told once it answers it. A queue that is not empty defers this to the end of the next batch;
     * meanwhile a new append carries the commit index anyway.
     */
    private void announceCommits() {
        CommitTable table = commit_table;
        if (table == null || !processing_queue.isEmpty() || !isLeader()) {
            return;
        }
        long term = currentTerm();
        if (term != announcedTerm) {
            announced.clear();
            announcedTerm = term;
        }
        long committed = commit_index;
        table.forEach((member, e) -> {
            long known = Math.min(committed, e.matchIndex());
            if (known > e.commitIndex() && known > announced.getOrDefault(member, 0L)) {
                announced.put(member, known);
                down_prot.down(new ObjectMessage(member, null)
                        .putHeader(id, new AppendEntriesRequest(local_addr, term, 0, 0, term, committed)));
            }
        });
    }

    /** Only ever called by RAFT's single processing thread, as its own handler. */
    @Override
    public void handleUpRequest(Message msg, RaftHeader hdr) {
        if (!(hdr instanceof AppendEntriesRequest request)) {
            super.handleUpRequest(msg, hdr);
            return;
        }
        if (currentTerm(hdr.currTerm()) < 0 || impl() == null) {
            return; // a stale leader's append, or not started
        }
        long term = currentTerm();
        AppendResult result = append(
                ((ObjectMessage) msg).getObject(),
                (Address) get(LEADER, request),
                (long) get(PREV_INDEX, request),
                (long) get(PREV_TERM, request),
                (long) get(LEADER_COMMIT, request),
                term);
        result.commitIndex(commit_index);
        down_prot.down(new EmptyMessage(msg.src()).putHeader(id, new AppendEntriesResponse(term, result)));
    }

    private AppendResult append(
            LogEntries entries, Address leader, long prevIndex, long prevTerm, long leaderCommit, long term) {
        leader(leader);
        if (term != verifiedTerm) {
            verifiedTerm = term;
            verified = 0;
        }
        verified = Math.max(verified, commit_index); // committed entries equal every member's
        boolean empty = entries == null || entries.size() == 0;
        if (prevIndex > 0 && prevIndex >= log_impl.firstAppended() && prevIndex > commit_index) {
            LogEntry prev = log_impl.get(prevIndex);
            if (prev == null) {
                num_failed_append_requests_not_found++;
                return new AppendResult(AppendResult.Result.FAIL_ENTRY_NOT_FOUND, Math.min(last_appended, verified));
            }
            if (prev.term() != prevTerm) {
                num_failed_append_requests_wrong_term++;
                long conflicting = firstIndexOfTerm(prevIndex, prev.term());
                deleteAllLogEntriesStartingFrom(conflicting);
                return new AppendResult(AppendResult.Result.FAIL_CONFLICTING_PREV_TERM, conflicting, prev.term());
            }
        }
        if (!empty) {
            long index = prevIndex + 1;
            LogEntries rest = null;
            for (LogEntry e : entries) {
                if (rest != null) {
                    rest.add(e);
                    continue;
                }
                if (index > commit_index && index >= log_impl.firstAppended()) {
                    LogEntry existing = index <= last_appended ? log_impl.get(index) : null;
                    if (existing != null && existing.term() != e.term()) {
                        deleteAllLogEntriesStartingFrom(index);
                        existing = null;
                    }
                    if (existing == null) {
                        rest = new LogEntries().add(e);
                        continue; // index stays the first one to append
                    }
                }
                index++;
            }
            if (rest != null && append(index, rest)) {
                num_successful_append_requests += rest.size();
            }
        }
        // The previous entry matched (or is committed), so everything up to the last one sent now equals
        // the leader's log; an append without entries verifies its previous entry only.
        verified = Math.max(verified, Math.min(last_appended, prevIndex + (empty ? 0 : entries.size())));
        commitLogTo(Math.min(leaderCommit, verified), false);
        return new AppendResult(AppendResult.Result.OK, verified);
    }

    /**
     * The first index of the run of {@code term} entries that ends at {@code from}, never at or below
     * the commit index: where the leader should send from, and from where this log's conflicting
     * entries go.
     */
    private long firstIndexOfTerm(long from, long term) {
        long first = Math.max(Math.max(1, log_impl.firstAppended()), commit_index + 1);
        long index = from;
        while (index - 1 >= first) {
            LogEntry e = log_impl.get(index - 1);
            if (e == null || e.term() != term) {
                break;
            }
            index--;
        }
        return index;
    }

    private static Field field(String name) {
        try {
            Field f = AppendEntriesRequest.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "jgroups-raft's AppendEntriesRequest has no readable field '" + name
                            + "': this store needs jgroups-raft 1.1.x (1.1.4.Final is tested)",
                    e);
        }
    }

    private static Object get(Field f, AppendEntriesRequest request) {
        try {
            return f.get(request);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
