package dev.idempotency.ids;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Snowflake ids: 64-bit, time-ordered, unique across nodes without coordination.
 *
 * <pre>
 *   0 | 41 bits: milliseconds since the epoch | 10 bits: worker id | 12 bits: sequence
 * </pre>
 *
 * <p>One generator per worker id: two nodes with the same worker id can produce the same id, so give
 * each node its own {@code idempotency.ids.worker-id}. Up to 4,096 ids per millisecond per worker;
 * 41 bits of milliseconds last about 69 years from the epoch.
 *
 * <p>Guarantees, for every thread of one generator: every id is unique and greater than every id
 * returned before it (monotonic). Lock-free: one compare-and-set on the last (time, sequence) pair.
 *
 * <p>When the wall clock steps back (an NTP correction, a VM resume), the generator keeps counting
 * from the last timestamp it used: ids stay unique and increasing, and run ahead of the clock. If a
 * millisecond's 4,096 sequence numbers run out while the clock is behind, it waits for the clock. If
 * the clock is behind the last timestamp by more than {@code maxClockBackward}, {@link #nextId()}
 * fails with {@link IllegalStateException} naming the step and the config key, instead of waiting
 * that long.
 */
public final class SnowflakeIds {

    /** Bits of the worker id. */
    public static final int WORKER_BITS = 10;
    /** Bits of the per-millisecond sequence. */
    public static final int SEQUENCE_BITS = 12;
    /** Bits of the timestamp. */
    public static final int TIMESTAMP_BITS = 41;
    /** The largest worker id. */
    public static final int MAX_WORKER_ID = (1 << WORKER_BITS) - 1;

    private static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;
    private static final long MAX_TIMESTAMP = (1L << TIMESTAMP_BITS) - 1;

    private final long epochMillis;
    private final long workerBits;
    private final long maxBackwardMillis;
    private final LongSupplier clockMillis;
    /** The last id's (timestamp << SEQUENCE_BITS | sequence); ids are this with the worker bits added. */
    private final AtomicLong last = new AtomicLong(-1);

    /**
     * @param workerId 0 to {@value #MAX_WORKER_ID}
     * @param epoch the instant timestamps count from; not in the future
     * @param maxClockBackward how far the clock may be behind the last timestamp before {@link #nextId()}
     *     fails
     */
    public SnowflakeIds(int workerId, Instant epoch, Duration maxClockBackward) {
        this(workerId, epoch, maxClockBackward, System::currentTimeMillis);
    }

    /**
     * @param workerId 0 to {@value #MAX_WORKER_ID}
     * @param epoch the instant timestamps count from
     * @param maxClockBackward how far the clock may be behind the last timestamp before {@link #nextId()}
     *     fails
     * @param clockMillis the wall clock, in epoch milliseconds
     */
    public SnowflakeIds(int workerId, Instant epoch, Duration maxClockBackward, LongSupplier clockMillis) {
        if (workerId < 0 || workerId > MAX_WORKER_ID) {
            throw new IllegalArgumentException("worker id " + workerId + " is outside 0.." + MAX_WORKER_ID);
        }
        this.epochMillis = epoch.toEpochMilli();
        this.workerBits = (long) workerId << SEQUENCE_BITS;
        this.maxBackwardMillis = maxClockBackward.toMillis();
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
    }

    /** A new id, unique and greater than every id this generator returned before. */
    public long nextId() {
        while (true) {
            long prev = last.get();
            long prevTs = prev >> SEQUENCE_BITS;
            long now = clockMillis.getAsLong() - epochMillis;
            long next;
            if (now > prevTs) {
                next = now << SEQUENCE_BITS;
            } else {
                if (prevTs - now > maxBackwardMillis) {
                    throw new IllegalStateException("The clock is " + (prevTs - now) + " ms behind the last id's"
                            + " timestamp, more than idempotency.ids.max-clock-backward (" + maxBackwardMillis
                            + " ms); no id is issued until it catches up. Check the node's time sync, or raise"
                            + " idempotency.ids.max-clock-backward.");
                }
                if ((prev & SEQUENCE_MASK) == SEQUENCE_MASK) {
                    // This millisecond's sequence is used up: wait for the clock to pass it.
                    Thread.onSpinWait();
                    continue;
                }
                next = prev + 1;
            }
            if ((next >> SEQUENCE_BITS) > MAX_TIMESTAMP) {
                throw new IllegalStateException("41 bits of milliseconds since idempotency.ids.epoch ("
                        + Instant.ofEpochMilli(epochMillis) + ") are used up; set a later epoch only together with"
                        + " a new id space.");
            }
            if (last.compareAndSet(prev, next)) {
                long ts = next >> SEQUENCE_BITS;
                return (ts << (WORKER_BITS + SEQUENCE_BITS)) | workerBits | (next & SEQUENCE_MASK);
            }
        }
    }

    /** The instant encoded in an id of a generator with this epoch. */
    public Instant instantOf(long id) {
        return Instant.ofEpochMilli((id >>> (WORKER_BITS + SEQUENCE_BITS)) + epochMillis);
    }

    /** The worker id encoded in an id. */
    public static int workerOf(long id) {
        return (int) ((id >>> SEQUENCE_BITS) & MAX_WORKER_ID);
    }

    /** The sequence number encoded in an id. */
    public static int sequenceOf(long id) {
        return (int) (id & SEQUENCE_MASK);
    }
}
