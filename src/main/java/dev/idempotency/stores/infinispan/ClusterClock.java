package dev.idempotency.stores.infinispan;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The time by which this member decides and writes expiry in the RAFT cluster: the median of the
 * visible members' clocks. Each member commits a beacon with its clock reading every {@link
 * #BEACON_INTERVAL} (and, asking the others for theirs, when it joins); every member notes, for each
 * other member, the reading of its latest beacon and when (on the monotonic clock) it applied it, so
 * that member's clock now is that reading plus the monotonic time since (a little less, by the
 * beacon's transit). A command carries one instant, used both to decide what has expired and to set
 * new expiries; the median is right for both as long as a majority of the members keep time: a
 * member whose clock runs hours ahead takes over no running claim and purges nothing early, and a
 * member whose clock runs behind writes no expiry that comes early. Within {@link #TOLERATED_SKEW} a
 * member keeps its own clock, and only beacons that arrive live count ({@link #CONSISTENT_WITHIN}). A
 * member further than that off the median is reported.
 *
 * <p>Until it has heard from every other visible member, a member is <em>unverified</em>: it does not
 * purge, and a claim waits briefly for the beacons (see {@link InfinispanClusterStore}).
 */
final class ClusterClock {

    /** How often each member commits its clock reading. */
    static final Duration BEACON_INTERVAL = Duration.ofSeconds(15);

    private static final System.Logger LOG = System.getLogger(ClusterClock.class.getName());
    private static final long REPORT_INTERVAL_NANOS = Duration.ofMinutes(10).toNanos();

    /**
     * How far a node's clock may be from the median before the median replaces it, and the node is
     * reported (WARN). Below it, the node's own clock decides, as on every store (a renewed claim keeps
     * two thirds of its lease ahead of it: 40 s of the default minute). The estimates of the others'
     * clocks lag by the time their beacons took to be applied (seconds on a loaded follower), which must
     * not move an honest node's expiries.
     */
    static final Duration TOLERATED_SKEW = Duration.ofSeconds(30);

    /**
     * How closely two successive beacons of a member must agree with the time between their
     * applications here for its readings to be trusted: beacons replayed from a log (a restart, a
     * member catching up) are applied long after they were sent, in a burst, and tell nothing of the
     * member's clock now.
     */
    static final Duration CONSISTENT_WITHIN = Duration.ofSeconds(2);

    /**
     * A member's latest beacon: its reading, this member's monotonic time when it was applied, and
     * whether it agrees with the one before (see {@link #CONSISTENT_WITHIN}).
     */
    private record Reading(long stampMillis, long appliedNanos, boolean trusted) {}

    private final Clock clock;
    private final String self;
    private final LongSupplier nanos;
    private final Map<String, Reading> readings = new ConcurrentHashMap<>();
    private final Map<String, Long> reportedNanos = new ConcurrentHashMap<>();

    /**
     * @param clock this member's wall clock
     * @param self this member's RAFT id: its own beacons tell nothing about its skew
     * @param nanos the monotonic clock ({@code System::nanoTime})
     */
    ClusterClock(Clock clock, String self, LongSupplier nanos) {
        this.clock = clock;
        this.self = self;
        this.nanos = nanos;
    }

    /** This member's own wall clock, the one its beacons carry. */
    Instant local() {
        return clock.instant();
    }

    /** Notes a beacon of {@code member} carrying {@code stamp}, as it is applied here. */
    void observed(String member, Instant stamp) {
        if (member.equals(self)) {
            return;
        }
        long at = nanos.getAsLong();
        long millis = stamp.toEpochMilli();
        Reading before = readings.get(member);
        boolean trusted = before != null
                && millis > before.stampMillis()
                && Math.abs((millis - before.stampMillis()) - (at - before.appliedNanos()) / 1_000_000)
                        <= CONSISTENT_WITHIN.toMillis();
        readings.put(member, new Reading(millis, at, trusted));
    }

    /**
     * The time for every expiry this member decides or writes: its own clock, unless that is more than
     * {@link #TOLERATED_SKEW} from the median of the visible members' clocks (its own, and each other's
     * as its latest trusted beacon tells it; the lower of the two middle ones for an even count): then
     * the median. With a majority of members on synchronized clocks, that is a true clock whichever one
     * member runs ahead or behind.
     *
     * @param visible the RAFT ids of the members this one currently sees
     */
    Instant now(Set<String> visible) {
        long own = clock.millis();
        long at = nanos.getAsLong();
        List<Long> clocks = new ArrayList<>(visible.size());
        List<String> names = new ArrayList<>(visible.size());
        clocks.add(own);
        names.add(self);
        for (Map.Entry<String, Reading> e : readings.entrySet()) {
            Reading r = e.getValue();
            if (r.trusted() && visible.contains(e.getKey())) { // a member that left decides nothing any more
                clocks.add(r.stampMillis() + (at - r.appliedNanos()) / 1_000_000);
                names.add(e.getKey());
            }
        }
        if (clocks.size() == 1) {
            return Instant.ofEpochMilli(own);
        }
        List<Long> sorted = new ArrayList<>(clocks);
        sorted.sort(null);
        long median = sorted.get((sorted.size() - 1) / 2);
        for (int i = 0; i < clocks.size(); i++) {
            report(names.get(i), clocks.get(i) - median, at);
        }
        return Instant.ofEpochMilli(Math.abs(own - median) <= TOLERATED_SKEW.toMillis() ? own : median);
    }

    /** Whether this member holds a trusted reading of every other member in {@code visible}. */
    boolean verified(Set<String> visible) {
        for (String member : visible) {
            Reading r = readings.get(member);
            if (!member.equals(self) && (r == null || !r.trusted())) {
                return false;
            }
        }
        return true;
    }

    private void report(String member, long aheadMillis, long at) {
        if (Math.abs(aheadMillis) <= TOLERATED_SKEW.toMillis()) {
            return;
        }
        Long last = reportedNanos.get(member);
        if (last != null && at - last < REPORT_INTERVAL_NANOS) {
            return;
        }
        reportedNanos.put(member, at);
        LOG.log(
                Level.WARNING,
                "Infinispan cluster: the clock of member {0} runs {1} {2} the median of the members'' clocks,"
                        + " as member {3} sees them. Expiry (takeovers and purges) is decided on the median, so"
                        + " one member''s skew changes nothing; if a majority of the members were skewed, records"
                        + " could expire early. Synchronize the clocks (NTP).",
                member,
                Duration.ofMillis(Math.abs(aheadMillis)),
                aheadMillis > 0 ? "ahead of" : "behind",
                self);
    }
}
