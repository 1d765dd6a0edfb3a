package dev.idempotency.internal.stores.infinispan;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.Util;

/**
 * Whether this member's clock may stamp the cluster's commands: only while it agrees, within {@link
 * #TOLERANCE}, with the clocks of a majority of the members (itself counted). Every claim, renewal,
 * completion and purge carries its proposer's clock reading, and {@link RecordSet} judges leases and
 * retentions by it; so no member's clock alone, the leader's included, can move an expiry.
 *
 * <p>Every member measures the offset of every other member's clock from its own, by a ping on the RAFT
 * group's channel, taken at the middle of its round trip: every {@link #REFRESH} while it agrees, every
 * second otherwise. An answer slower than {@link #MAX_ROUND_TRIP} is not used, and a sample older than
 * {@link #VALIDITY}, or of a member that left the view, does not count. Two members that agree each
 * agree with a majority, and two majorities share a member, so their clocks differ by at most twice the
 * tolerance plus the measurement error. A member that has not measured a majority yet is {@link
 * Verdict#UNKNOWN}: it stamps nothing (never its raw clock); one that measured a majority and does not
 * agree with one is {@link Verdict#SKEWED}, and says so once at WARNING.
 */
final class ClusterClock implements Receiver, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ClusterClock.class.getName());

    /** How far a member's clock may be from a majority's for it to stamp commands. */
    static final Duration TOLERANCE = Duration.ofSeconds(1);

    /** The longest round trip a sample is taken from: its error is at most half of it. */
    static final Duration MAX_ROUND_TRIP = Duration.ofSeconds(1);

    /** How often a member that agrees measures again. */
    static final Duration REFRESH = Duration.ofSeconds(5);

    /** How long a sample counts: a loaded cluster whose answers are slow keeps its last good ones this long. */
    static final Duration VALIDITY = Duration.ofMinutes(1);

    /** How often a member that does not agree measures again; one that knows nothing yet, every {@link #TICK}. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private static final Duration TICK = Duration.ofMillis(200);

    /** First bytes of a ping or its answer: the only messages on the channel without a RAFT header. */
    private static final int MAGIC = 0x1DC10C4E;

    private static final byte PING = 1;
    private static final byte PONG = 2;

    /** What a member's measurements say about its clock. */
    enum Verdict {
        /** Within {@link ClusterClock#TOLERANCE} of a majority's clocks: it stamps commands with its own. */
        AGREES,
        /** A majority measured, and fewer than a majority within the tolerance: it stamps nothing. */
        SKEWED,
        /** Fewer than a majority measured (starting, or cut off): it stamps nothing. */
        UNKNOWN
    }

    /**
     * One evaluation of the samples.
     *
     * @param skewMillis this member's clock minus the median of the measured members' clocks (itself
     *     included; of an even number, the median nearest this clock)
     * @param agreeing the members (itself included) whose clocks are within the tolerance of its own
     * @param measured the members (itself included) with a sample that counts
     * @param offsets each other member's measured offset from this clock, for messages
     */
    record Check(Verdict verdict, long skewMillis, int agreeing, int measured, String offsets) {

        boolean agrees() {
            return verdict == Verdict.AGREES;
        }
    }

    private record Sample(long offsetMillis, long atNanos) {}

    private record Pending(Address to, long sentMillis, long sentNanos, CountDownLatch answered) {}

    private final JChannel channel;
    private final Clock clock;
    private final String group;
    private final String raftId;
    private final int members;

    private final Map<Address, Sample> samples = new ConcurrentHashMap<>();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    private volatile Check check;

    /** When the last round started ({@code System.nanoTime()}); 0 asks for one at the next tick. */
    private volatile long lastRound;

    /** Whether the WARNING of this member's skew was logged; cleared once its clock agrees again. */
    private boolean warnedSkew;

    /** The same for a split: this clock at the median, but too few others near it. */
    private boolean warnedSplit;

    private final ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "idempotency-raft-clock");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param channel the RAFT group's channel: its view is the members measured, and this object becomes
     *     its receiver (RAFT's own messages never reach it)
     * @param group the record set's name, for messages
     * @param members how many members the group has ({@code initial-hosts}): a majority of them must agree
     */
    ClusterClock(JChannel channel, Clock clock, String group, String raftId, int members) {
        this.channel = channel;
        this.clock = clock;
        this.group = group;
        this.raftId = raftId;
        this.members = members;
        this.check = new Check(members <= 1 ? Verdict.AGREES : Verdict.UNKNOWN, 0, 1, 1, "none");
        channel.setReceiver(this);
    }

    /** Starts measuring; call once the channel is connected. */
    void start() {
        rounds.scheduleWithFixedDelay(this::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        rounds.shutdownNow();
    }

    /** The last evaluation. */
    Check check() {
        return check;
    }

    /**
     * The last evaluation, waiting at most {@code limit} while it is {@link Verdict#UNKNOWN} (a member
     * that just started measures within a round trip of seeing the others).
     */
    Check await(Duration limit) {
        Check c = check;
        if (c.verdict() != Verdict.UNKNOWN) {
            return c;
        }
        long deadline = System.nanoTime() + limit.toNanos();
        synchronized (this) {
            lastRound = 0;
            while (check.verdict() == Verdict.UNKNOWN) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                try {
                    wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return check;
        }
    }

    /** Why a member whose check does not agree stamps nothing, for the caller's message. */
    String refusal(Check c) {
        if (c.verdict() == Verdict.UNKNOWN) {
            return "member '" + raftId + "' has not compared its clock with a majority of the " + members
                    + " members yet (" + c.measured() + " measured, with round trips under "
                    + MAX_ROUND_TRIP.toMillis() + " ms)";
        }
        String agreement = "within " + TOLERANCE.toMillis() + " ms of only " + c.agreeing() + " of the " + members
                + " members' clocks (itself counted; a majority is " + majority() + ")";
        if (!skewed(c)) {
            return "the clock of member '" + raftId + "' is " + agreement + ", and the others it measured disagree"
                    + " with it: synchronise the members' clocks (NTP), or start the members that are down";
        }
        return "the clock of member '" + raftId + "' is " + readable(Math.abs(c.skewMillis()))
                + (c.skewMillis() >= 0 ? " ahead of" : " behind") + " the median of the " + c.measured()
                + " members' clocks it measured, more than the " + TOLERANCE.toMillis() + " ms allowed, and "
                + agreement + ": synchronise its clock (NTP)";
    }

    /** A skew of 10 s or more to the second (a measurement is good to half a round trip anyway). */
    private static Duration readable(long millis) {
        return millis >= 10_000 ? Duration.ofSeconds(Math.round(millis / 1000.0)) : Duration.ofMillis(millis);
    }

    /** Whether this clock itself is off the median, rather than at it with too few others near it. */
    private static boolean skewed(Check c) {
        return Math.abs(c.skewMillis()) > TOLERANCE.toMillis();
    }

    private int majority() {
        return members / 2 + 1;
    }

    // ---------------------------------------------------------------- measuring

    private void tick() {
        try {
            Verdict v = check.verdict();
            long every = v == Verdict.AGREES ? REFRESH.toNanos() : v == Verdict.SKEWED ? RETRY.toNanos() : 0;
            long last = lastRound;
            if (last != 0 && System.nanoTime() - last < every) {
                return;
            }
            round();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "clock measurement of the RAFT group failed: {0}", e.toString());
        }
    }

    /** Pings every other member of the view, waits for the answers at most {@link #MAX_ROUND_TRIP}, evaluates. */
    private void round() throws InterruptedException {
        lastRound = System.nanoTime() | 1; // never 0
        View view = channel.getView();
        Address self = channel.getAddress();
        List<Address> peers = new ArrayList<>();
        if (view != null) {
            for (Address a : view.getMembersRaw()) {
                if (!a.equals(self)) {
                    peers.add(a);
                }
            }
        }
        CountDownLatch answered = new CountDownLatch(peers.size());
        List<Long> sent = new ArrayList<>();
        for (Address peer : peers) {
            long id = ids.incrementAndGet();
            sent.add(id);
            pending.put(id, new Pending(peer, clock.millis(), System.nanoTime(), answered));
            send(peer, PING, id, 0);
        }
        answered.await(MAX_ROUND_TRIP.toMillis(), TimeUnit.MILLISECONDS);
        sent.forEach(pending::remove); // an answer later than this is too slow to read a clock from
        evaluate();
    }

    private void send(Address to, byte type, long id, long millis) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(21);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeByte(type);
            out.writeLong(id);
            out.writeLong(millis);
            out.flush();
            // Out of band: a ping must not queue behind the RAFT traffic of its sender.
            channel.send(new BytesMessage(to, bytes.toByteArray()).setFlag(Message.Flag.OOB));
        } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, "clock ping to {0} not sent: {1}", to, e.toString());
        }
    }

    @Override
    public void receive(Message msg) {
        if (msg.getLength() != 21) {
            return;
        }
        try (DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(msg.getArray(), msg.getOffset(), msg.getLength()))) {
            if (in.readInt() != MAGIC) {
                return;
            }
            byte type = in.readByte();
            long id = in.readLong();
            long millis = in.readLong();
            if (type == PING) {
                send(msg.getSrc(), PONG, id, clock.millis());
            } else if (type == PONG) {
                answered(msg.getSrc(), id, millis);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "malformed clock message from {0}", msg.getSrc());
        }
    }

    private void answered(Address from, long id, long theirMillis) {
        long at = System.nanoTime();
        Pending p = pending.remove(id);
        if (p == null || !p.to().equals(from)) {
            return;
        }
        long roundTrip = at - p.sentNanos();
        if (roundTrip <= MAX_ROUND_TRIP.toNanos()) {
            long midpoint = p.sentMillis() + TimeUnit.NANOSECONDS.toMillis(roundTrip) / 2;
            samples.put(from, new Sample(theirMillis - midpoint, at));
        }
        p.answered().countDown();
    }

    /** A new view: samples of members that left stop counting, and a round starts at the next tick. */
    @Override
    public void viewAccepted(View view) {
        samples.keySet().removeIf(a -> !view.containsMember(a));
        lastRound = 0;
        try {
            rounds.execute(this::evaluate);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed
        }
    }

    private void evaluate() {
        long at = System.nanoTime();
        View view = channel.getView();
        Address self = channel.getAddress();
        List<Long> offsets = new ArrayList<>();
        offsets.add(0L);
        StringBuilder listed = new StringBuilder();
        if (view != null) {
            for (Address a : view.getMembersRaw()) {
                Sample s = a.equals(self) ? null : samples.get(a);
                if (s != null && at - s.atNanos() <= VALIDITY.toNanos()) {
                    offsets.add(s.offsetMillis());
                    listed.append(listed.length() == 0 ? "" : ", ")
                            .append(raftId(a))
                            .append(' ')
                            .append(s.offsetMillis() >= 0 ? "+" : "")
                            .append(s.offsetMillis())
                            .append(" ms");
                }
            }
        }
        int agreeing = 0;
        for (long o : offsets) {
            if (Math.abs(o) <= TOLERANCE.toMillis()) {
                agreeing++;
            }
        }
        Verdict verdict = agreeing >= majority()
                ? Verdict.AGREES
                : offsets.size() >= majority() ? Verdict.SKEWED : Verdict.UNKNOWN;
        offsets.sort(null);
        int n = offsets.size();
        // Of an even number of clocks, any reading between the middle two is a median: the one nearest
        // this clock, so that a member facing a single other clock never calls itself the skewed one.
        long median = Math.max(offsets.get((n - 1) / 2), Math.min(offsets.get(n / 2), 0L));
        Check next = new Check(verdict, -median, agreeing, n, listed.length() == 0 ? "none" : listed.toString());
        synchronized (this) {
            Check before = check;
            check = next;
            notifyAll();
            report(before, next);
        }
    }

    /** Once per skew at WARNING (an operator must fix the clock), once at INFO when it agrees again. */
    private void report(Check before, Check now) {
        boolean skew = now.verdict() == Verdict.SKEWED && skewed(now);
        boolean split = now.verdict() == Verdict.SKEWED && !skewed(now);
        // A member that said its own clock is off says nothing more of a split while the others come and go.
        if ((skew && !warnedSkew) || (split && !warnedSplit && !warnedSkew)) {
            warnedSkew |= skew;
            warnedSplit |= split;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Infinispan cluster '" + group + "': " + refusal(now)
                            + ". Until it agrees, this member refuses every claim, completion and"
                            + " renewal (503, the calls do not run) and purges nothing. The other members'"
                            + " clocks minus this one's: " + now.offsets() + ".");
        } else if (now.verdict() == Verdict.AGREES && (warnedSkew || warnedSplit)) {
            warnedSkew = false;
            warnedSplit = false;
            LOG.log(
                    System.Logger.Level.INFO,
                    "Infinispan cluster ''{0}'': the clock of member ''{1}'' agrees with a majority''s again",
                    group,
                    raftId);
        } else if (now.verdict() != before.verdict()) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "Infinispan cluster ''{0}'': clock of member ''{1}'' {2} (offsets: {3})",
                    group,
                    raftId,
                    now.verdict(),
                    now.offsets());
        }
    }

    /** The RAFT id an address carries, or the address itself. */
    static String raftId(Address a) {
        if (a instanceof ExtendedUUID u && u.get(RAFT.raft_id_key) != null) {
            return Util.bytesToString(u.get(RAFT.raft_id_key));
        }
        return String.valueOf(a);
    }
}
