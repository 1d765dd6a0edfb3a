package dev.idempotency.tokens;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Bounds the one-time tokens the HTTP endpoint issues on this node within one token lifetime: per owner
 * and in total. Each issued token is a record in the store until it expires, and the endpoint may serve
 * anonymous callers, so without a bound one client could fill the store. Issuing is not on a guarded
 * call's path, so one lock is enough.
 */
public final class IssueBudget {

    private record Issue(String owner, long at) {}

    private final int perOwner;
    private final int total;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    /** Every issue within the window, oldest first. */
    private final ArrayDeque<Issue> issues = new ArrayDeque<>();
    /** The same issues per owner, oldest first. */
    private final Map<String, ArrayDeque<Long>> byOwner = new HashMap<>();

    /**
     * @param perOwner tokens one owner may hold issued within the window
     * @param total tokens issued within the window on this node
     * @param window the tokens' lifetime
     * @param nanoTime a monotonic clock ({@code System::nanoTime})
     */
    public IssueBudget(int perOwner, int total, Duration window, LongSupplier nanoTime) {
        this.perOwner = perOwner;
        this.total = total;
        this.windowNanos = window.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * Counts a token for {@code owner} if the bounds allow it.
     *
     * @return empty when the token may be issued; else how long until the bound frees a slot
     */
    public synchronized Optional<Duration> take(String owner) {
        long now = nanoTime.getAsLong();
        while (!issues.isEmpty() && now - issues.peekFirst().at() >= windowNanos) {
            Issue old = issues.pollFirst();
            ArrayDeque<Long> mine = byOwner.get(old.owner());
            mine.pollFirst();
            if (mine.isEmpty()) {
                byOwner.remove(old.owner());
            }
        }
        ArrayDeque<Long> mine = byOwner.get(owner);
        if (mine != null && mine.size() >= perOwner) {
            return Optional.of(until(mine.peekFirst(), now));
        }
        if (issues.size() >= total) {
            return Optional.of(until(issues.peekFirst().at(), now));
        }
        byOwner.computeIfAbsent(owner, k -> new ArrayDeque<>()).addLast(now);
        issues.addLast(new Issue(owner, now));
        return Optional.empty();
    }

    private Duration until(long oldest, long now) {
        return Duration.ofNanos(Math.max(0, oldest + windowNanos - now));
    }
}
