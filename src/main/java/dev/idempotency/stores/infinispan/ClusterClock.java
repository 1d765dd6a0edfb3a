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
 * member whose clock runs behind writes no expiry that comes early. A skewed member is reported.
 *
 * <p>Until it has heard from every other visible member, a member is <em>unverified</em>: it does not
 * purge, and a claim waits briefly for the beacons (see {@link InfinispanClusterStore}).
 */
final class ClusterClock {

    /** How often each member commits its clock reading. */
    static final Duration BEACON_INTERVAL = Duration.ofSeconds(15);

    /** A member whose clock differs from this one's by more than this is reported (WARN). */
    static final Duration REPORTED_SKEW = Duration.ofMinutes(1);

    private static final System.Logger LOG = System.getLogger(ClusterClock.class.getName());
    private static final long REPORT_INTERVAL_NANOS = Duration.ofMinutes(10).toNanos();

    /** A member's latest beacon: its reading, and this member's monotonic time when it was applied. */
    private record Reading(long stampMillis, long appliedNanos) {}

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
        readings.put(member, new Reading(stamp.toEpochMilli(), nanos.getAsLong()));
    }

    /**
     * The time for every expiry this member decides or writes: the median of the visible members'
     * clocks (its own, and each other's as its latest beacon tells it; the lower of the two middle
     * ones for an even count). With a majority of members on synchronized clocks, that is a true
     * clock whichever one member runs ahead or behind.
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
            if (visible.contains(e.getKey())) { // a member that left decides nothing any more
                Reading r = e.getValue();
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
        return Instant.ofEpochMilli(median);
    }

    /** Whether this member has heard the clock of every other member in {@code visible}. */
    boolean verified(Set<String> visible) {
        for (String member : visible) {
            if (!member.equals(self) && !readings.containsKey(member)) {
                return false;
            }
        }
        return true;
    }

    private void report(String member, long aheadMillis, long at) {
        if (Math.abs(aheadMillis) <= REPORTED_SKEW.toMillis()) {
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
