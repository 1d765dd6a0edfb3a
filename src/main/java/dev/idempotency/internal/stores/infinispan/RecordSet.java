package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordLifecycle;
import dev.idempotency.spi.RecordStatus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jgroups.raft.StateMachine;

/**
 * The records of a clustered Infinispan store, as a RAFT state machine: every member holds every
 * record, and every change is a command that RAFT commits on a majority of the members and then
 * applies on each of them in the same order.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>A command is decided here, at its place in the log, by {@link RecordLifecycle}, on the state
 *       that every earlier command left. Two claims of one key are two commands, so the second sees
 *       the first's record: there is no window in which both can win, whatever the members do.
 *   <li>{@link #apply} depends only on the state and the command: the clock reading is part of the
 *       command (the proposing node's clock, as for a claim on any store, sent only while it agrees
 *       with a majority's: {@link ClusterClock}), and so is the claim grace of a purge. Every member
 *       therefore reaches the same state.
 *   <li>A read-only command ({@link #read}) changes nothing; the leader answers it once a majority
 *       confirmed it is still the leader, which makes the answer current (linearizable).
 *   <li>{@link #local} reads this member's copy without RAFT. It may lag behind the leader by the
 *       commands not yet applied here; callers use it only where a stale answer cannot run an
 *       operation twice (a COMPLETED record is final until it expires).
 *   <li>A command that ends a running claim (a complete, the commit of a prepared one, a release)
 *       tells {@link #onSettled} its key once this member applied it. The notice changes nothing
 *       here, so members stay alike whoever listens.
 * </ol>
 */
final class RecordSet implements StateMachine {

    private static final System.Logger LOG = System.getLogger(RecordSet.class.getName());

    private static final byte CLAIM = 1;
    private static final byte COMPLETE = 2;
    private static final byte RELEASE = 3;
    private static final byte DELETE = 4;
    private static final byte PURGE = 5;
    private static final byte READ = 6;
    private static final byte PREPARE = 7;
    private static final byte COMMIT_PREPARED = 8;
    private static final byte NOOP = 9;
    private static final byte RENEW = 10;
    // 11 was TIME, a read of the leader's clock, which no longer judges anything (ClusterClock).
    private static final byte CLAIM_WITHIN = 12;

    /** First byte of a {@link #claimWithin} answer: the claim was decided (the rest is a claim answer). */
    private static final byte DECIDED = 0;

    /** First byte of a {@link #claimWithin} answer: no room for a new record (the set's counts follow). */
    private static final byte FULL = 1;

    /**
     * Heap bytes a record takes besides its outcome, as counted against {@code max-bytes}: the map
     * entry, the record, its key, owner and fingerprint (measured: {@code RecordSetMemory}).
     */
    static final long RECORD_OVERHEAD_BYTES = 600;

    /** Version of the snapshot format, first byte of every snapshot. */
    private static final byte SNAPSHOT_V1 = 1;

    private final Map<String, IdempotencyRecord> records = new ConcurrentHashMap<>();

    /**
     * What the records and prepared outcomes take, as {@link #footprint} counts it: changed only by
     * {@link #apply} and {@link #readContentFrom}, so every member counts the same for the same state.
     */
    private volatile long bytes;

    /** Told the key of each claim a command applied here settled ({@link #onSettled}); nobody by default. */
    private volatile Consumer<String> settled = key -> {};

    /**
     * The outcomes of prepared claims, by key (see {@link #prepare}): an entry exists only next to its
     * owner's IN_PROGRESS record, and goes when that record is replaced or removed.
     */
    private final Map<String, byte[]> prepared = new ConcurrentHashMap<>();

    /**
     * From now on, tells {@code listener} the key of each running claim that a command applied on this
     * member completed or released, on RAFT's applying thread, after the record changed: the listener
     * must be quick and must not throw (a throw is caught, so that the command is never applied twice).
     * Commands applied before this call are not told, nor is the state a snapshot installs.
     */
    void onSettled(Consumer<String> listener) {
        settled = listener;
    }

    /** This member's copy of a key's record (live or not), without asking the cluster. */
    IdempotencyRecord local(String key) {
        return records.get(key);
    }

    /** How many records this member holds, live or not. */
    int size() {
        return records.size();
    }

    /** The bytes this member's records and prepared outcomes count for ({@link #footprint}). */
    long bytes() {
        return bytes;
    }

    /** Whether this member holds a record that a purge at {@code now} would delete. */
    boolean hasDead(Instant now, Duration grace) {
        for (IdempotencyRecord r : records.values()) {
            if (isDead(r, now, grace)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- commands

    static byte[] claim(String key, String owner, String fingerprint, Instant now, Duration lease) {
        return command(CLAIM, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeString(out, fingerprint);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, lease);
        });
    }

    /**
     * A {@link #claim} that creates no new record while the set holds {@code maxEntries} records, or
     * one that would take it past {@code maxBytes}; a claim of a key that has a record (a replay, a
     * takeover) is decided as usual. The limits travel in the command, so that every member decides
     * the same whatever its own configuration.
     */
    static byte[] claimWithin(
            String key, String owner, String fingerprint, Instant now, Duration lease, long maxEntries, long maxBytes) {
        return command(CLAIM_WITHIN, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeString(out, fingerprint);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, lease);
            out.writeLong(maxEntries);
            out.writeLong(maxBytes);
        });
    }

    /**
     * @param acceptOwn whether a record already COMPLETED by {@code owner} counts as success: set when
     *     an earlier attempt of this same complete may have been applied (its answer was lost)
     */
    static byte[] complete(String key, String owner, byte[] outcome, Instant now, Duration ttl, boolean acceptOwn) {
        return command(COMPLETE, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeBytes(out, outcome);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, ttl);
            out.writeBoolean(acceptOwn);
        });
    }

    static byte[] release(String key, String owner) {
        return command(RELEASE, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
        });
    }

    /** The owner's claim extended to {@code now + lease} ({@link RecordLifecycle#renew}). */
    static byte[] renew(String key, String owner, Instant now, Duration lease) {
        return command(RENEW, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, lease);
        });
    }

    static byte[] delete(String key, String owner) {
        return command(DELETE, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
        });
    }

    /** Deletes up to {@code max} dead records (see {@link #isDead}), smallest keys first. */
    static byte[] purge(Instant now, Duration grace, int max) {
        return command(PURGE, out -> {
            RecordCodec.writeInstant(out, now);
            writeDuration(out, grace);
            out.writeInt(max);
        });
    }

    /**
     * The first half of a completion inside the caller's transaction: the owner's claim keeps its
     * outcome aside and is extended to {@code ttl} from now, so that nobody takes the key over while
     * the caller's transaction decides (and, if its node dies meanwhile, until the retention ends:
     * whether the operation's effect committed is then unknown). The record stays IN_PROGRESS, so
     * duplicates are refused, not replayed. Answers whether the claim was the owner's.
     */
    static byte[] prepare(String key, String owner, byte[] outcome, Instant now, Duration ttl) {
        return command(PREPARE, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeBytes(out, outcome);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, ttl);
        });
    }

    /**
     * The second half, once the caller's transaction committed: the owner's prepared claim becomes
     * COMPLETED with the outcome kept aside, for {@code ttl} from now. {@code acceptOwn} as for {@link
     * #complete}.
     */
    static byte[] commitPrepared(String key, String owner, Instant now, Duration ttl, boolean acceptOwn) {
        return command(COMMIT_PREPARED, out -> {
            RecordCodec.writeString(out, key);
            RecordCodec.writeString(out, owner);
            RecordCodec.writeInstant(out, now);
            writeDuration(out, ttl);
            out.writeBoolean(acceptOwn);
        });
    }

    /**
     * Changes nothing. A new leader commits one at the start of its term: a log with an entry is what
     * makes the leader send appends, and so announce itself, to a member that joins later (a member
     * whose RAFT stack started after the election missed the election's announcement).
     */
    static byte[] noop() {
        return command(NOOP, out -> {});
    }

    /** Read-only: the key's record, live or not, or none. */
    static byte[] read(String key) {
        return command(READ, out -> RecordCodec.writeString(out, key));
    }

    // ---------------------------------------------------------------- answers

    static ClaimResult claimResult(byte[] answer) {
        return decode(answer, in -> {
            boolean claimed = in.readBoolean();
            IdempotencyRecord record = RecordCodec.readRecord(in);
            IdempotencyRecord replaced = RecordCodec.readOptionalRecord(in);
            return claimed ? ClaimResult.claimed(record, replaced) : ClaimResult.existing(record);
        });
    }

    /** The answer to {@link #claimWithin}: a decided claim, or the set's counts when it was full. */
    sealed interface Bounded permits Decided, Full {}

    /** The claim was decided: {@code result} as for {@link #claim}. */
    record Decided(ClaimResult result) implements Bounded {}

    /** No room: the set held {@code entries} records counting {@code bytes}. */
    record Full(long entries, long bytes) implements Bounded {}

    static Bounded boundedResult(byte[] answer) {
        return decode(answer, in -> {
            if (in.readByte() == FULL) {
                return new Full(in.readLong(), in.readLong());
            }
            boolean claimed = in.readBoolean();
            IdempotencyRecord record = RecordCodec.readRecord(in);
            IdempotencyRecord replaced = RecordCodec.readOptionalRecord(in);
            return new Decided(claimed ? ClaimResult.claimed(record, replaced) : ClaimResult.existing(record));
        });
    }

    static boolean booleanResult(byte[] answer) {
        return decode(answer, DataInput::readBoolean);
    }

    static int intResult(byte[] answer) {
        return decode(answer, DataInput::readInt);
    }

    static IdempotencyRecord recordResult(byte[] answer) {
        return decode(answer, RecordCodec::readOptionalRecord);
    }

    // ---------------------------------------------------------------- the state machine

    @Override
    public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) throws Exception {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, offset, length));
        byte op = in.readByte();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        switch (op) {
            case CLAIM -> applyClaim(in, out);
            case CLAIM_WITHIN -> applyClaimWithin(in, out);
            case COMPLETE -> applyComplete(in, out);
            case RELEASE -> {
                String key = RecordCodec.readString(in);
                String owner = RecordCodec.readString(in);
                boolean released = removeIf(key, r -> RecordLifecycle.isOwnedBy(r, owner));
                if (released) {
                    settled(key);
                }
                out.writeBoolean(released);
            }
            case DELETE -> {
                String key = RecordCodec.readString(in);
                String owner = RecordCodec.readString(in);
                out.writeBoolean(removeIf(key, r -> RecordLifecycle.isCompletedBy(r, owner)));
            }
            case PURGE -> applyPurge(in, out);
            case PREPARE -> applyPrepare(in, out);
            case COMMIT_PREPARED -> applyCommitPrepared(in, out);
            case NOOP -> {}
            case RENEW -> applyRenew(in, out);
            case READ -> RecordCodec.writeOptionalRecord(out, records.get(RecordCodec.readString(in)));
            default -> throw new IOException("unknown idempotency record command " + op);
        }
        out.flush();
        return serializeResponse ? bytes.toByteArray() : null;
    }

    private void applyClaimWithin(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        String fingerprint = RecordCodec.readString(in);
        Instant now = RecordCodec.readInstant(in);
        Duration lease = readDuration(in);
        long maxEntries = in.readLong();
        long maxBytes = in.readLong();
        decideClaim(key, owner, fingerprint, now, lease, maxEntries, maxBytes, true, out);
    }

    /** A {@link #claim} (unbounded; commands written before {@link #claimWithin} existed). */
    private void applyClaim(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        String fingerprint = RecordCodec.readString(in);
        Instant now = RecordCodec.readInstant(in);
        Duration lease = readDuration(in);
        decideClaim(key, owner, fingerprint, now, lease, Long.MAX_VALUE, Long.MAX_VALUE, false, out);
    }

    private void decideClaim(
            String key,
            String owner,
            String fingerprint,
            Instant now,
            Duration lease,
            long maxEntries,
            long maxBytes,
            boolean bounded,
            DataOutput out)
            throws IOException {
        IdempotencyRecord existing = records.get(key);
        if (existing == null && (records.size() >= maxEntries || bytes + RECORD_OVERHEAD_BYTES > maxBytes)) {
            // Full: nothing live is ever dropped to make room. The proposer purges what is dead and
            // tries once more, or refuses its call.
            out.writeByte(FULL);
            out.writeLong(records.size());
            out.writeLong(bytes);
            return;
        }
        if (bounded) {
            out.writeByte(DECIDED);
        }
        if (!RecordLifecycle.isClaimable(existing, now)) {
            out.writeBoolean(false);
            RecordCodec.writeRecord(out, existing);
            RecordCodec.writeOptionalRecord(out, null);
            return;
        }
        IdempotencyRecord claim = RecordLifecycle.newClaim(key, owner, fingerprint, now, lease);
        store(key, claim);
        dropAside(key);
        out.writeBoolean(true);
        RecordCodec.writeRecord(out, claim);
        RecordCodec.writeOptionalRecord(out, existing);
    }

    private void applyRenew(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        Instant now = RecordCodec.readInstant(in);
        Duration lease = readDuration(in);
        IdempotencyRecord existing = records.get(key);
        if (!RecordLifecycle.isOwnedBy(existing, owner)) {
            out.writeBoolean(false);
            return;
        }
        store(key, RecordLifecycle.renew(existing, now, lease));
        out.writeBoolean(true);
    }

    private void applyComplete(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        byte[] outcome = RecordCodec.readBytes(in);
        Instant now = RecordCodec.readInstant(in);
        Duration ttl = readDuration(in);
        boolean acceptOwn = in.readBoolean();
        out.writeBoolean(completeWith(key, owner, outcome, now, ttl, acceptOwn));
    }

    /**
     * The owner's claim becomes COMPLETED with {@code outcome}; or, when {@code acceptOwn}, a record the
     * owner already completed counts as done. A missing outcome (a commit without a prepare) completes
     * nothing.
     */
    private boolean completeWith(
            String key, String owner, byte[] outcome, Instant now, Duration ttl, boolean acceptOwn) {
        IdempotencyRecord existing = records.get(key);
        if (RecordLifecycle.isOwnedBy(existing, owner) && outcome != null) {
            store(key, RecordLifecycle.complete(existing, outcome, now, ttl));
            dropAside(key);
            settled(key);
            return true;
        }
        return acceptOwn && RecordLifecycle.isCompletedBy(existing, owner);
    }

    private void applyPrepare(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        byte[] outcome = RecordCodec.readBytes(in);
        Instant now = RecordCodec.readInstant(in);
        Duration ttl = readDuration(in);
        IdempotencyRecord existing = records.get(key);
        if (!RecordLifecycle.isOwnedBy(existing, owner)) {
            out.writeBoolean(false);
            return;
        }
        store(
                key,
                new IdempotencyRecord(
                        key,
                        RecordStatus.IN_PROGRESS,
                        owner,
                        existing.fingerprint(),
                        now.plus(ttl),
                        null,
                        existing.createdAt()));
        keepAside(key, outcome);
        out.writeBoolean(true);
    }

    private void applyCommitPrepared(DataInput in, DataOutput out) throws IOException {
        String key = RecordCodec.readString(in);
        String owner = RecordCodec.readString(in);
        Instant now = RecordCodec.readInstant(in);
        Duration ttl = readDuration(in);
        boolean acceptOwn = in.readBoolean();
        out.writeBoolean(completeWith(key, owner, prepared.get(key), now, ttl, acceptOwn));
    }

    private void applyPurge(DataInput in, DataOutput out) throws IOException {
        Instant now = RecordCodec.readInstant(in);
        Duration grace = readDuration(in);
        int max = in.readInt();
        // Smallest keys first: which records a batch deletes must not depend on this member's map order.
        List<String> dead = new ArrayList<>();
        for (IdempotencyRecord r : records.values()) {
            if (isDead(r, now, grace)) {
                dead.add(r.key());
            }
        }
        dead.sort(null);
        int n = Math.min(max, dead.size());
        for (int i = 0; i < n; i++) {
            drop(dead.get(i));
        }
        out.writeInt(n);
    }

    /**
     * Whether a record may be deleted at {@code now}: a COMPLETED one whose retention ended, or an
     * IN_PROGRESS one whose lease ended more than {@code grace} ago (until then its owner may still
     * complete it if nobody took over).
     */
    private static boolean isDead(IdempotencyRecord r, Instant now, Duration grace) {
        Instant end = r.status() == RecordStatus.IN_PROGRESS ? r.expiresAt().plus(grace) : r.expiresAt();
        return !end.isAfter(now);
    }

    /** Tells the listener that {@code key}'s claim was settled; never fails the command already applied. */
    private void settled(String key) {
        try {
            settled.accept(key);
        } catch (RuntimeException e) {
            // A listener that breaks its contract: applying must go on (RAFT would apply the command
            // again after a throw). The waiters it failed look at the store a little later anyway.
            LOG.log(System.Logger.Level.DEBUG, "a settlement listener failed", e);
        }
    }

    private boolean removeIf(String key, java.util.function.Predicate<IdempotencyRecord> test) {
        IdempotencyRecord existing = records.get(key);
        if (test.test(existing)) {
            drop(key);
            return true;
        }
        return false;
    }

    // Every change to the records and the outcomes kept aside goes through these four, which count bytes.

    private void store(String key, IdempotencyRecord record) {
        IdempotencyRecord old = records.put(key, record);
        bytes += footprint(record) - (old == null ? 0 : footprint(old));
    }

    private void dropAside(String key) {
        byte[] aside = prepared.remove(key);
        if (aside != null) {
            bytes -= aside.length;
        }
    }

    private void keepAside(String key, byte[] outcome) {
        byte[] old = prepared.put(key, outcome);
        bytes += outcome.length - (old == null ? 0 : old.length);
    }

    private void drop(String key) {
        IdempotencyRecord old = records.remove(key);
        if (old != null) {
            bytes -= footprint(old);
        }
        dropAside(key);
    }

    /** What a record counts for against {@code max-bytes}: {@link #RECORD_OVERHEAD_BYTES} and its outcome. */
    static long footprint(IdempotencyRecord r) {
        return RECORD_OVERHEAD_BYTES + (r.outcome() == null ? 0 : r.outcome().length);
    }

    @Override
    public void readContentFrom(DataInput in) throws Exception {
        byte version = in.readByte();
        if (version != SNAPSHOT_V1) {
            throw new IOException("idempotency record snapshot of unknown version " + version);
        }
        int n = in.readInt();
        records.clear();
        prepared.clear();
        long counted = 0;
        for (int i = 0; i < n; i++) {
            IdempotencyRecord r = RecordCodec.readRecord(in);
            records.put(r.key(), r);
            counted += footprint(r);
        }
        int p = in.readInt();
        for (int i = 0; i < p; i++) {
            String key = RecordCodec.readString(in);
            byte[] outcome = RecordCodec.readBytes(in);
            prepared.put(key, outcome);
            counted += outcome.length;
        }
        bytes = counted;
    }

    /** Writes the records and prepared outcomes in key order: every member's snapshot of one state is the same. */
    @Override
    public void writeContentTo(DataOutput out) throws Exception {
        List<IdempotencyRecord> all = new ArrayList<>(records.values());
        all.sort(java.util.Comparator.comparing(IdempotencyRecord::key));
        out.writeByte(SNAPSHOT_V1);
        out.writeInt(all.size());
        for (IdempotencyRecord r : all) {
            RecordCodec.writeRecord(out, r);
        }
        List<Map.Entry<String, byte[]>> outcomes = new ArrayList<>(prepared.entrySet());
        outcomes.sort(Map.Entry.comparingByKey());
        out.writeInt(outcomes.size());
        for (Map.Entry<String, byte[]> e : outcomes) {
            RecordCodec.writeString(out, e.getKey());
            RecordCodec.writeBytes(out, e.getValue());
        }
    }

    // ---------------------------------------------------------------- encoding helpers

    private interface Writer {
        void write(DataOutput out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInput in) throws IOException;
    }

    private static byte[] command(byte op, Writer body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(op);
            body.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
    }

    private static <T> T decode(byte[] answer, Reader<T> reader) {
        try {
            return reader.read(new DataInputStream(new ByteArrayInputStream(answer)));
        } catch (IOException e) {
            throw new UncheckedIOException("malformed answer from the idempotency record set", e);
        }
    }

    private static void writeDuration(DataOutput out, Duration d) throws IOException {
        out.writeLong(d.getSeconds());
        out.writeInt(d.getNano());
    }

    private static Duration readDuration(DataInput in) throws IOException {
        return Duration.ofSeconds(in.readLong(), in.readInt());
    }
}
