package dev.idempotency.internal.stores.infinispan;

import static dev.idempotency.spi.StoreSupport.keyHash;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.stores.JoinedMode;
import dev.idempotency.internal.stores.Throttle;
import dev.idempotency.spi.CallerTransactionRollingBackException;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.GuardedOperation;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordLifecycle;
import dev.idempotency.spi.RecordStatus;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import org.infinispan.factories.GlobalComponentRegistry;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.remoting.transport.Transport;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.fork.ForkChannel;
import org.jgroups.protocols.raft.ELECTION;
import org.jgroups.protocols.raft.FileBasedLog;
import org.jgroups.protocols.raft.REDIRECT;
import org.jgroups.protocols.raft.Role;
import org.jgroups.raft.RaftHandle;

/**
 * The store of a cluster of Infinispan nodes: the records are a RAFT state machine ({@link RecordSet})
 * replicated to every member over the cache manager's own JGroups channel (jgroups-raft).
 *
 * <p>Every claim, complete, release and delete is one RAFT command, decided by {@link RecordLifecycle}
 * on every member in log order; the caller gets the leader's decision. A command carries this
 * member's clock reading, sent only while that clock agrees with a majority's ({@link ClusterClock}):
 * otherwise the call gets {@link IdempotencyStoreUnavailableException}. Without a majority nothing
 * commits and a claim gets {@link IdempotencyStoreUnavailableException} within {@code write-timeout}.
 * A complete or release whose answer was lost is sent again for up to {@link #SETTLE_PATIENCE}. A
 * duplicate of a key this member holds COMPLETED is answered from its own copy; {@link #read} asks the
 * leader. How a cluster behaves: docs/infinispan-store.md; the design: docs/internals.md, "The
 * Infinispan cluster".
 */
public final class InfinispanRaftStore implements IdempotencyStore, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(InfinispanRaftStore.class.getName());

    /**
     * How long a complete or release keeps trying when no answer comes (no leader, a leader that died
     * with the command in flight). The operation already ran: an outcome that is not stored lets a
     * retry run it again once the lease ends, so waiting out a failover is worth more than answering
     * fast.
     */
    static final Duration SETTLE_PATIENCE = Duration.ofMinutes(2);

    /** Log size at which a member writes a snapshot of its records and truncates its log. */
    static final long MAX_LOG_BYTES = 64L * 1024 * 1024;

    /** A claim's commit at least this slow is refused when it left less than half of the lease. */
    static final Duration LATE_COMMIT = Duration.ofSeconds(1);

    /** At most one WARNING per this period about claims that committed late; the others at DEBUG. */
    private static final Duration LATE_WARNING_EVERY = Duration.ofMinutes(1);

    private final Throttle lateWarning = new Throttle(LATE_WARNING_EVERY);

    /**
     * What a cluster store needs besides its cache manager.
     *
     * @param name the record set's name ({@code idempotency.infinispan.cache}): stores of one name on the
     *     members share their records
     * @param raftId this member's RAFT id, one of {@code members}
     * @param members every member's RAFT id; a majority of them must be up for writes to commit
     * @param stateDir the directory of this member's RAFT log and snapshots
     * @param fsync whether every log append is forced to disk before it counts
     * @param writeTimeout how long a command waits for its answer
     * @param claimGrace how long an IN_PROGRESS record outlives its lease, so a late owner can complete
     * @param transactionRegistry the JNDI name of the JTA registry, for the joined mode (see {@link
     *     #complete(GuardedOperation, String, String, byte[], Duration)})
     * @param maxEntries records the group holds at most; a claim of a new key beyond it is refused
     * @param maxBytes bytes the group's records count for at most (see {@link RecordSet#footprint}); a
     *     claim of a new key beyond it is refused
     */
    public record Options(
            String name,
            String raftId,
            List<String> members,
            Path stateDir,
            boolean fsync,
            Duration writeTimeout,
            Duration claimGrace,
            String transactionRegistry,
            long maxEntries,
            long maxBytes) {}

    /** How often at most a member that found the group full purges before it claims again. */
    static final Duration FULL_PURGE_INTERVAL = Duration.ofSeconds(1);

    private final EmbeddedCacheManager manager;
    private final Options options;
    private final Clock clock;
    private final Runnable onClose;
    private final RecordSet records;
    private final ForkChannel channel;
    private final VerifyingRaft protocol;
    private final RaftHandle raft;

    /** Told the keys of the claims settled on any member ({@link #notifySettlements}). */
    private final List<Consumer<String>> settledListeners = new CopyOnWriteArrayList<>();

    /** Requests sent to the leader, by operation ("claim", "complete", "read", ...). */
    private final Map<String, LongAdder> sent = new ConcurrentHashMap<>();

    /**
     * Keys whose completed record this member deleted ({@link #deleteCompleted}), by when: until this
     * member has applied the delete its own copy still says completed, and a claim must not replay it.
     */
    private final Map<String, Instant> deleted = new ConcurrentHashMap<>();

    /** Looked up on first use by an operation in the joined mode. */
    private final JoinedMode.Registry registry;

    /** Whether this member's clock agrees with a majority's, which it must for it to stamp a command. */
    private final ClusterClock clusterClock;

    /** When this member last purged because the group was full ({@code System.nanoTime()}). */
    private final AtomicLong lastFullPurge = new AtomicLong(System.nanoTime() - FULL_PURGE_INTERVAL.toNanos());

    private final AtomicLong refusedSinceWarning = new AtomicLong();
    private final Throttle fullWarning = new Throttle(Duration.ofMinutes(1));

    /** Set while commands fail, so that an outage is logged once when it starts and once when it ends. */
    private final AtomicBoolean failing = new AtomicBoolean();

    /**
     * Joins this member's RAFT group on the manager's channel. The manager's transport must have been
     * configured with {@code options.raftId()} as its node name and {@code options.members()} as its
     * RAFT members ({@link InfinispanStores} does it), which gives every member an address that
     * carries its RAFT id.
     *
     * @param onClose what {@link #close()} stops besides this store's channel (the cache manager this
     *     store created), or {@code null}
     */
    public InfinispanRaftStore(EmbeddedCacheManager manager, Options options, Clock clock, Runnable onClose) {
        this.manager = manager;
        this.options = options;
        this.registry = new JoinedMode.Registry(options.transactionRegistry(), "The Infinispan store");
        this.clock = clock;
        this.onClose = onClose;
        this.records = new RecordSet();
        Transport transport = GlobalComponentRegistry.componentOf(manager, Transport.class);
        if (!(transport instanceof JGroupsTransport jgroups)) {
            throw new IllegalStateException("the Infinispan cache manager has no JGroups transport: " + transport);
        }
        JChannel main = jgroups.getChannel();
        String stack = "idempotency-" + options.name();
        // VerifyingRaft, not RAFT: see there for the defect of jgroups-raft's follower that it closes.
        protocol = new VerifyingRaft();
        protocol.raftId(options.raftId())
                .members(options.members())
                .logClass(FileBasedLog.class.getName())
                .logDir(options.stateDir().toAbsolutePath().toString())
                .logPrefix(stack + "-" + options.raftId().replaceAll("[^A-Za-z0-9._-]", "_"))
                .maxLogSize(MAX_LOG_BYTES)
                // Not send_commits_immediately: measured, it floods the leader's processing queue
                // ("processing queue is full" with 16 callers). VerifyingRaft's leader tells followers
                // of a commit once it has nothing queued instead, so that their copies, and the waiters
                // their notices wake (notifySettlements), follow the leader within a round trip. The
                // copies serve only answers a stale copy cannot get wrong (see claim).
                .logUseFsync(options.fsync());
        try {
            // ELECTION, as Infinispan's own RAFT channels use, not ELECTION2: a member's RAFT stack is a
            // fork that starts only after its channel joined the view, and ELECTION2's pre-vote, which
            // waits for an answer from every member of the view, then never completes (measured: no
            // leader after 60 s). ELECTION's coordinator asks again until a majority answers.
            channel = new ForkChannel(main, stack, stack, new ELECTION(), protocol, new REDIRECT());
            raft = new RaftHandle(channel, records);
            clusterClock = new ClusterClock(
                    channel,
                    clock,
                    options.name(),
                    options.raftId(),
                    options.members().size());
            raft.addRoleListener(role -> {
                if (role == Role.Leader) {
                    announceLeadership();
                }
            });
            channel.connect(stack);
            clusterClock.start();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not join the RAFT group '" + stack + "' as '" + options.raftId() + "' with its log in "
                            + options.stateDir() + ": " + e,
                    e);
        }
    }

    /** The cache manager whose channel this store uses. */
    public EmbeddedCacheManager cacheManager() {
        return manager;
    }

    /** This member's RAFT id. */
    public String raftId() {
        return options.raftId();
    }

    /** Every member's RAFT id. */
    public List<String> members() {
        return options.members();
    }

    /** The members this node currently sees, itself included. */
    public int visibleMembers() {
        View v = channel.getView();
        return v == null ? 0 : v.size();
    }

    /**
     * Whether this member knows a RAFT leader that it can currently reach: the condition for claims to
     * commit. A member cut off from the majority loses it once its failure detection notices.
     */
    public boolean hasLeader() {
        Address leader = raft.leader();
        View v = channel.getView();
        return leader != null && v != null && v.containsMember(leader);
    }

    /** This member's RAFT protocol, for tests and benchmarks. */
    VerifyingRaft protocol() {
        return protocol;
    }

    /** This member's own copy of a key's record, without asking the leader (it may lag). */
    IdempotencyRecord localCopy(String key) {
        return records.local(key);
    }

    /** The RAFT id of the leader this member follows, or {@code null} while it knows none. */
    public String leader() {
        Address a = raft.leader();
        return a == null ? null : ClusterClock.raftId(a);
    }

    /** How many records this member holds, live or not (every member holds all of them). */
    public int localSize() {
        return records.size();
    }

    /** The bytes this member's records count for against {@code max-bytes}. */
    public long localBytes() {
        return records.bytes();
    }

    /**
     * Tells {@code listener} the key of each claim that a complete or release of any member settled,
     * as this member applies the command: on the leader as it commits, on a follower a round trip
     * later ({@link VerifyingRaft#promptCommits}). Called on RAFT's applying thread; the log this
     * member replayed as it started is not told.
     */
    @Override
    public boolean notifySettlements(Consumer<String> listener) {
        settledListeners.add(listener);
        records.onSettled(this::settled);
        return true;
    }

    private void settled(String key) {
        for (Consumer<String> l : settledListeners) {
            try {
                l.accept(key);
            } catch (RuntimeException e) {
                // A listener that breaks its contract; the others are still told.
                LOG.log(System.Logger.Level.DEBUG, "a settlement listener failed", e);
            }
        }
    }

    @Override
    public ClaimResult claim(String key, String owner, String fingerprint, Duration lease) {
        return claim(GuardedOperation.NONE, key, owner, fingerprint, lease);
    }

    @Override
    public ClaimResult claim(GuardedOperation operation, String key, String owner, String fingerprint, Duration lease) {
        if (operation.joined()) {
            requireTransaction(operation.name()); // before the call runs: its outcome could not be prepared
        }
        Instant now = now(key);
        IdempotencyRecord mine = records.local(key);
        if (mine != null
                && mine.status() == RecordStatus.COMPLETED
                && RecordLifecycle.isLive(mine, now)
                && (deleted.isEmpty() || !deleted.containsKey(key))) {
            // Final until it expires, or a delete: a stale copy cannot be wrong, but for a key this member
            // deleted and may not have applied yet.
            return ClaimResult.existing(mine);
        }
        if (mine != null && RecordLifecycle.isLive(mine, now)) {
            // In progress on this copy: ask the leader (a read, no log entry) before claiming, so the
            // duplicates of a running call never write.
            IdempotencyRecord current = readFromLeader(key);
            if (current != null && !RecordLifecycle.isClaimable(current, now)) {
                return ClaimResult.existing(current);
            }
        }
        RecordSet.Bounded answer = claimWithin(key, owner, fingerprint, now, lease);
        if (answer instanceof RecordSet.Full && purgeWhenFull(now)) {
            now = now(key);
            answer = claimWithin(key, owner, fingerprint, now, lease);
        }
        if (answer instanceof RecordSet.Full full) {
            throw full(key, full);
        }
        ClaimResult result = ((RecordSet.Decided) answer).result();
        if (result.claimed()) {
            refuseIfLate(key, owner, lease, now, result.record().expiresAt());
        }
        return result;
    }

    private RecordSet.Bounded claimWithin(String key, String owner, String fingerprint, Instant now, Duration lease) {
        byte[] command =
                RecordSet.claimWithin(key, owner, fingerprint, now, lease, options.maxEntries(), options.maxBytes());
        return RecordSet.boundedResult(send("claim", key, command));
    }

    /**
     * The group was full: deletes its dead records, at most once per {@link #FULL_PURGE_INTERVAL} on
     * this member (a purge reads every record). Answers whether a claim may find room now.
     */
    private boolean purgeWhenFull(Instant now) {
        long last = lastFullPurge.get();
        long at = System.nanoTime();
        if (at - last < FULL_PURGE_INTERVAL.toNanos() || !lastFullPurge.compareAndSet(last, at)) {
            return false;
        }
        return purgeExpired(Integer.MAX_VALUE) > 0;
    }

    private IdempotencyStoreUnavailableException full(String key, RecordSet.Full full) {
        String what = "The Infinispan idempotency cluster '" + options.name() + "' is full (limits "
                + InfinispanStoreSettings.MAX_ENTRIES + "=" + options.maxEntries() + ", "
                + InfinispanStoreSettings.MAX_BYTES + "="
                + options.maxBytes() + "; it holds " + full.entries() + " records counting " + full.bytes()
                + " bytes)";
        String fix = "Raise the limits (each member's heap must hold them: about "
                + RecordSet.RECORD_OVERHEAD_BYTES + " bytes a record plus its stored outcome), or shorten"
                + " idempotency.ttl.";
        long refused = refusedSinceWarning.incrementAndGet();
        if (fullWarning.pass()) {
            refusedSinceWarning.addAndGet(-refused);
            LOG.log(
                    System.Logger.Level.WARNING,
                    what + " and holds no expired record: " + refused
                            + " new claim(s) refused since the last warning, and those calls did not run. " + fix);
        }
        return new IdempotencyStoreUnavailableException(
                null,
                keyHash(key),
                what + " and every record in it is still live, so the call did not run; retry later. Operators: " + fix,
                null);
    }

    /**
     * A claim carries the instant it was sent, and its lease runs from there. A claim that commits
     * late (a slow majority, a leader election, a restarting member's catch-up) can come back with
     * little of its lease left, or none: a later claim, stamped after that end, would take the key over
     * while this caller runs. So a claim that comes back with less than half its lease left is given
     * back (fenced by its owner, so it never releases another's claim) and its caller does not run:
     * 503, retry. Half the lease leaves the keep-alive, which renews every third of it, time to renew.
     * A commit faster than {@link #LATE_COMMIT} is the cluster's normal pace and is never refused, so
     * that leases of a second or less (tests) keep working.
     */
    private void refuseIfLate(String key, String owner, Duration lease, Instant sent, Instant expiresAt) {
        // The clock the claim was stamped with (see now), read again without asking whether it still agrees.
        Instant now = clock.instant();
        if (Duration.between(sent, now).compareTo(LATE_COMMIT) < 0
                || !Duration.between(now, expiresAt).minus(lease.dividedBy(2)).isNegative()) {
            return;
        }
        try {
            send("release", key, RecordSet.release(key, owner));
        } catch (IdempotencyStoreUnavailableException e) {
            // The claim holds the key until its lease ends; nothing runs under it.
        }
        long took = Duration.between(sent, now).toMillis();
        LOG.log(
                lateWarning.warningLevel(),
                "Infinispan cluster claim of key {0} committed {1} ms after it was sent, with less than half of"
                        + " its lease ({2} ms) left; it was given back and its call refused (503). The RAFT group"
                        + " ''{3}'' commits too slowly for this lease: look at the members' load and network, or"
                        + " lengthen the lease.",
                keyHash(key),
                took,
                lease.toMillis(),
                options.name());
        throw new IdempotencyStoreUnavailableException(
                null,
                keyHash(key),
                "The Infinispan idempotency cluster committed the claim " + took + " ms after it was sent, too"
                        + " close to the end of its " + lease.toMillis() + " ms lease for the call to run before"
                        + " another claim could take the key over. The call did not run; retry it.",
                null);
    }

    @Override
    public Optional<IdempotencyRecord> read(String key) {
        IdempotencyRecord r = readFromLeader(key);
        return RecordLifecycle.isLive(r, now(key)) ? Optional.of(r) : Optional.empty();
    }

    /**
     * Stores the owner's outcome. For an operation in the joined mode, inside the caller's JTA
     * transaction, in two steps: now a {@code prepare} (the claim keeps the outcome aside and holds the
     * key for {@code ttl}), and once the transaction ended, from its synchronization, the outcome is
     * committed if the transaction committed, or the claim released if it rolled back. A node that dies
     * between the two leaves the key refused (409) until its retention ends: whether the operation's
     * effect committed is unknown then, so the key is neither replayed nor run again (an operator can
     * release it after checking). In the separate mode, and in both after a lost answer, see the class
     * Javadoc.
     */
    @Override
    public boolean complete(String key, String owner, byte[] outcome, Duration ttl) {
        return complete(GuardedOperation.NONE, key, owner, outcome, ttl);
    }

    @Override
    public boolean complete(GuardedOperation operation, String key, String owner, byte[] outcome, Duration ttl) {
        if (operation.joined()) {
            return completeJoined(operation.name(), key, owner, outcome, ttl);
        }
        return persistently(
                "complete",
                key,
                retry -> RecordSet.booleanResult(
                        send("complete", key, RecordSet.complete(key, owner, outcome, now(key), ttl, retry))));
    }

    private boolean completeJoined(String operation, String key, String owner, byte[] outcome, Duration ttl) {
        TransactionSynchronizationRegistry registry = this.registry.get();
        int status = registry.getTransactionStatus();
        if (JoinedMode.rollingBack(status)) {
            // The work rolls back: there is nothing to prepare. The claim is not part of the transaction,
            // so it is released once the transaction ended (at once if it cannot be followed any more).
            releaseWhenEnded(registry, key, owner, ttl);
            throw new CallerTransactionRollingBackException(operation, status);
        }
        if (status != Status.STATUS_ACTIVE) {
            throw JoinedMode.noTransaction(operation, "its call is guarded", status);
        }
        // Registered before the prepare: however the prepare ends (stored, refused, or no answer), the
        // transaction's end settles the claim.
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int end) {
                settleJoined(key, owner, ttl, end == Status.STATUS_COMMITTED);
            }
        });
        boolean prepared = false;
        try {
            prepared = RecordSet.booleanResult(
                    send("prepare", key, RecordSet.prepare(key, owner, outcome, now(key), ttl)));
            return prepared;
        } finally {
            if (!prepared) {
                // The outcome is not held for the key (no answer, or another owner took it over): the work
                // must not commit without it, whatever the caller does with this answer.
                registry.setRollbackOnly();
            }
        }
    }

    /** Releases a joined claim once its transaction, which will not commit, has ended. */
    private void releaseWhenEnded(TransactionSynchronizationRegistry registry, String key, String owner, Duration ttl) {
        try {
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int end) {
                    settleJoined(key, owner, ttl, false);
                }
            });
        } catch (IllegalStateException e) {
            // Too late to follow (rolling back already): nothing of the work can commit, so release now.
            settleJoined(key, owner, ttl, false);
        }
    }

    /** The registry of the active JTA transaction that a joined operation needs, or a configuration error. */
    private TransactionSynchronizationRegistry requireTransaction(String operation) {
        TransactionSynchronizationRegistry tsr = registry.get();
        int status = tsr.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw JoinedMode.noTransaction(operation, "its call is guarded", status);
        }
        return tsr;
    }

    /**
     * After the caller's transaction: commits the prepared outcome, or releases the claim. A failure
     * here cannot reach the caller any more (the transaction is over), so it is logged: an operator
     * must look.
     */
    private void settleJoined(String key, String owner, Duration ttl, boolean committed) {
        try {
            if (committed) {
                boolean stored = persistently(
                        "commit",
                        key,
                        retry -> RecordSet.booleanResult(
                                send("commit", key, RecordSet.commitPrepared(key, owner, now(key), ttl, retry))));
                if (!stored) {
                    LOG.log(
                            System.Logger.Level.DEBUG,
                            "Infinispan cluster: the prepared outcome of key {0} was not the owner''s any more",
                            keyHash(key));
                }
            } else {
                persistently(
                        "release",
                        key,
                        retry -> RecordSet.booleanResult(send("release", key, RecordSet.release(key, owner))));
            }
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Infinispan cluster: the " + (committed ? "committed" : "rolled back") + " transaction of key "
                            + keyHash(key) + " could not be settled within " + SETTLE_PATIENCE.toMinutes()
                            + " minutes; the key stays refused (in progress) until its retention ends. "
                            + (committed
                                    ? "The operation's effect committed: leave the key, or read its record."
                                    : "The operation's effect rolled back: release the key so that a retry runs.")
                            + " Cause: " + e,
                    e);
        }
    }

    /** A cluster's records can be prepared in the caller's transaction and committed after it. */
    @Override
    public boolean canJoinCallerTransaction() {
        return true;
    }

    @Override
    public boolean release(String key, String owner) {
        // Sent again after a lost answer, a release that was applied finds nothing of its owner: false,
        // and the claim is gone either way.
        return persistently(
                "release", key, retry -> RecordSet.booleanResult(send("release", key, RecordSet.release(key, owner))));
    }

    /**
     * Releases as above in both modes: a joined call's claim is not part of its transaction (only its
     * prepared outcome waits for the commit), so the engine's release of it is immediate.
     */
    @Override
    public boolean release(GuardedOperation operation, String key, String owner) {
        return release(key, owner);
    }

    /** One RAFT command, not retried: the engine renews again a third of a lease later. */
    @Override
    public boolean renew(String key, String owner, Duration lease) {
        return RecordSet.booleanResult(send("renew", key, RecordSet.renew(key, owner, now(key), lease)));
    }

    @Override
    public boolean deleteCompleted(String key, String owner) {
        boolean removed = RecordSet.booleanResult(send("delete", key, RecordSet.delete(key, owner)));
        if (removed) {
            // Deletes are rare (a repair): the map stays small, and a minute outlasts any apply lag. This
            // member's own clock: the entries are compared with nothing but each other.
            Instant now = clock.instant();
            deleted.values().removeIf(at -> at.isBefore(now.minusSeconds(60)));
            deleted.put(key, now);
        }
        return removed;
    }

    /**
     * Deletes up to {@code max} records whose retention (or lease plus grace) ended, by one command
     * that every member applies; sends nothing when this member holds no such record.
     */
    @Override
    public int purgeExpired(int max) {
        ClusterClock.Check check = clusterClock.check();
        if (!check.agrees()) {
            // A purge is housekeeping: skipped, quietly, until this member's clock may judge retentions.
            LOG.log(System.Logger.Level.DEBUG, "Infinispan cluster purge skipped: {0}", clusterClock.refusal(check));
            return 0;
        }
        Instant now = clock.instant();
        if (max <= 0 || !records.hasDead(now, options.claimGrace())) {
            return 0;
        }
        return RecordSet.intResult(send("purge", null, RecordSet.purge(now, options.claimGrace(), max)));
    }

    /** Leaves the RAFT group; stops the cache manager if this store started it. */
    @Override
    public void close() {
        clusterClock.close();
        try {
            channel.disconnect();
            channel.close();
        } finally {
            if (onClose != null) {
                onClose.run();
            }
        }
    }

    /**
     * How many requests for {@code operation} this member sent to the RAFT leader: commands ({@code
     * claim}, {@code complete}, {@code release}, {@code delete}, {@code purge}), each a log entry, and
     * read-only requests ({@code read}, which a claim of a key in progress sends as well).
     */
    public long requestsSent(String action) {
        LongAdder n = sent.get(action);
        return n == null ? 0 : n.sum();
    }

    // ---------------------------------------------------------------- the cluster's clock

    /**
     * The clock reading a command of {@code key} is stamped with: this member's own clock, once it agrees
     * with a majority of the members' ({@link ClusterClock}); waits for a first measurement at most
     * {@code write-timeout}. Otherwise nothing is stamped: {@link IdempotencyStoreUnavailableException},
     * and the call does not run, so that no member's clock alone, the leader's included, moves a lease
     * or a retention end.
     */
    private Instant now(String key) {
        ClusterClock.Check check = clusterClock.await(options.writeTimeout());
        if (check.agrees()) {
            return clock.instant();
        }
        String why = clusterClock.refusal(check);
        // Handled: the caller gets 503; the skew itself was logged once at WARNING (ClusterClock).
        LOG.log(System.Logger.Level.DEBUG, "Infinispan cluster command of key {0} refused: {1}", keyHash(key), why);
        throw new IdempotencyStoreUnavailableException(
                null,
                keyHash(key),
                "The Infinispan idempotency cluster '" + options.name() + "' did not stamp the command: " + why
                        + ". The call did not run; retry it (another node may take it).",
                null);
    }

    /** This member's last clock evaluation, for tests. */
    ClusterClock.Check clockCheck() {
        return clusterClock.check();
    }

    // ---------------------------------------------------------------- RAFT round trips

    /**
     * Commits a no-op as this member starts leading ({@link RecordSet#noop}), from another thread: the
     * role change is reported from inside RAFT. Tried for a few seconds while the new role settles.
     */
    private void announceLeadership() {
        Thread announcer = new Thread(() -> {
            byte[] noop = RecordSet.noop();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < deadline && raft.isLeader()) {
                try {
                    raft.setAsync(noop, 0, noop.length, null)
                            .get(options.writeTimeout().toMillis(), TimeUnit.MILLISECONDS);
                    return;
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    LOG.log(
                            System.Logger.Level.DEBUG,
                            "RAFT no-op of a new leader not committed yet: {0}",
                            e.toString());
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        });
        announcer.setName("idempotency-raft-noop");
        announcer.setDaemon(true);
        announcer.start();
    }

    private IdempotencyRecord readFromLeader(String key) {
        byte[] query = RecordSet.read(key);
        return RecordSet.recordResult(await("read", key, () -> raft.getAsync(query, 0, query.length, null)));
    }

    private byte[] send(String action, String key, byte[] command) {
        return await(action, key, () -> raft.setAsync(command, 0, command.length, null));
    }

    private interface Request {
        CompletableFuture<byte[]> start() throws Exception;
    }

    /**
     * Sends a request and waits for its answer, at most {@code write-timeout}. Every failure (no
     * leader, a leader that died or lost its majority, no answer in time) is {@link
     * IdempotencyStoreUnavailableException}: nothing this call decided was applied as far as it
     * knows, though a command may still commit later.
     */
    private byte[] await(String action, String key, Request request) {
        sent.computeIfAbsent(action, o -> new LongAdder()).increment();
        Throwable failure;
        try {
            byte[] answer = request.start().get(options.writeTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (failing.compareAndSet(true, false)) {
                LOG.log(System.Logger.Level.INFO, "The idempotency RAFT group ''{0}'' answers again", options.name());
            }
            return answer;
        } catch (TimeoutException e) {
            failure = e;
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e;
        } catch (Exception e) {
            failure = e; // RaftLeaderException: no leader known
        }
        String why = failure instanceof TimeoutException
                ? "no answer within " + options.writeTimeout().toMillis() + " ms"
                : String.valueOf(failure);
        // Once per outage at WARNING: an operator must look at the cluster (members down, a split).
        // Every further failure of the same outage at DEBUG.
        boolean first = failing.compareAndSet(false, true);
        LOG.log(
                first ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                "Infinispan cluster {0} of key {1} failed: {2} (RAFT leader {3}, {4} members visible of {5})",
                action,
                key == null ? "-" : keyHash(key),
                why,
                raft.leader(),
                visibleMembers(),
                options.members().size());
        throw new IdempotencyStoreUnavailableException(
                null,
                key == null ? null : keyHash(key),
                "The Infinispan idempotency cluster did not commit the " + action + " (" + why + "): a majority of"
                        + " its " + options.members().size() + " members must be up and reachable from each other"
                        + " (idempotency.infinispan.initial-hosts). The call did not run; retry it.",
                failure);
    }

    /**
     * Runs a complete or release again after it failed for want of an answer, until it succeeds or
     * {@link #SETTLE_PATIENCE} has passed; {@code attempt} is told whether an earlier attempt may have
     * been applied.
     */
    private <T> T persistently(String action, String key, Function<Boolean, T> attempt) {
        long deadline = System.nanoTime() + SETTLE_PATIENCE.toNanos();
        for (boolean retry = false; ; retry = true) {
            try {
                return attempt.apply(retry);
            } catch (IdempotencyStoreUnavailableException e) {
                if (System.nanoTime() >= deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
