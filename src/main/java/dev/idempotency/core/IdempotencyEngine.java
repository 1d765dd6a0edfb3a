package dev.idempotency.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.RecordStatus;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the record state machine of {@link RecordLifecycle} against a store, for every entry point:
 * {@link #begin} decides whether a call runs, replays or fails; the caller then reports the outcome
 * with {@link #complete} or gives the key back with {@link #release}.
 *
 * <p>Thread-safe; one instance serves the whole application.
 */
public final class IdempotencyEngine {

    private static final System.Logger LOG = System.getLogger(IdempotencyEngine.class.getName());
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final IdempotencyStore store;
    private final String tokenPrefix;
    private final AtomicLong tokenCounter = new AtomicLong();

    /** @param store where records live */
    public IdempotencyEngine(IdempotencyStore store) {
        this.store = Objects.requireNonNull(store, "store");
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        // 96 random bits per engine, then a counter: unique across nodes and restarts, and far cheaper
        // per call than a random UUID.
        this.tokenPrefix = HexFormat.of().formatHex(random) + "-";
    }

    /** The store this engine uses. */
    public IdempotencyStore store() {
        return store;
    }

    /**
     * Decides what a call with this key and fingerprint does.
     *
     * @return {@link Claim.Owned} when the call must run, {@link Claim.Replay} when it must replay
     * @throws IdempotencyKeyMismatchException the key's record was made with another fingerprint
     * @throws IdempotencyInProgressException another call holds the key (REJECT, or WAIT timed out)
     * @throws IdempotencyStoreUnavailableException the store failed; the call must not run
     */
    public Claim begin(OperationPolicy policy, RecordKey key, String fingerprint) {
        String owner = tokenPrefix + Long.toString(tokenCounter.incrementAndGet(), 36);
        long waitStarted = 0;
        long pause = FIRST_PAUSE_NANOS;
        while (true) {
            ClaimResult result = claim(policy, key, owner, fingerprint);
            IdempotencyRecord record = result.record();
            if (result.claimed()) {
                return new Claim.Owned(key, owner, policy, false);
            }
            if (!record.fingerprint().equals(fingerprint)) {
                LOG.log(Level.DEBUG, "{0}: key reused with different arguments", key);
                throw new IdempotencyKeyMismatchException(policy.name(), key.hash());
            }
            if (record.status() == RecordStatus.COMPLETED) {
                LOG.log(Level.DEBUG, "{0}: replaying the stored outcome", key);
                return new Claim.Replay(key, record.outcome());
            }
            Duration retryAfter = RecordLifecycle.remaining(record, Instant.now());
            if (policy.onInProgress() == InProgressPolicy.REJECT) {
                LOG.log(Level.DEBUG, "{0}: rejected, another call is in progress", key);
                throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
            }
            long now = System.nanoTime();
            if (waitStarted == 0) {
                waitStarted = now;
            }
            long left = policy.lease().toNanos() - (now - waitStarted);
            if (left <= 0) {
                LOG.log(Level.DEBUG, "{0}: waited the whole lease, the running call did not finish", key);
                throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
            }
            pauseFor(Math.min(pause, left), policy, key, retryAfter);
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }

    /**
     * Stores the outcome of an owned call. Never throws: the operation already ran, so a failure to
     * record is logged (with the key's hash) and the claim stays until its lease ends.
     *
     * @return true if the outcome was stored
     */
    public boolean complete(Claim.Owned claim, byte[] outcome) {
        try {
            boolean done = CurrentOperation.call(
                    claim.policy().name(),
                    () -> store.complete(
                            claim.key().storeKey(),
                            claim.owner(),
                            outcome,
                            claim.policy().ttl()));
            if (!done) {
                LOG.log(
                        Level.WARNING,
                        "{0}: the outcome was not stored because the key is no longer claimed by this call."
                                + " Usually the call ran longer than its lease ({1}) and another call took the key"
                                + " over: raise the lease of ''{2}''. On a clustered Infinispan store, a duplicate"
                                + " of this call racing it while nodes joined or left can also cause it (see"
                                + " docs/infinispan-store.md, Limitation that remains).",
                        claim.key(),
                        claim.policy().lease(),
                        claim.policy().name());
            }
            return done;
        } catch (RuntimeException e) {
            LOG.log(
                    Level.ERROR,
                    claim.key() + ": the operation ran but its outcome could not be stored; the key stays claimed"
                            + " until its lease ends (" + claim.policy().lease() + ")",
                    e);
            return false;
        }
    }

    /**
     * Gives an owned key back, so that the next call runs. Never throws: if the store fails, the
     * claim frees itself when its lease ends.
     *
     * @return true if the claim was deleted
     */
    public boolean release(Claim.Owned claim) {
        try {
            return CurrentOperation.call(
                    claim.policy().name(), () -> store.release(claim.key().storeKey(), claim.owner()));
        } catch (RuntimeException e) {
            LOG.log(
                    Level.ERROR,
                    claim.key() + ": the key could not be released; it frees itself when its lease ends ("
                            + claim.policy().lease() + ")",
                    e);
            return false;
        }
    }

    private ClaimResult claim(OperationPolicy policy, RecordKey key, String owner, String fingerprint) {
        try {
            return CurrentOperation.call(
                    policy.name(), () -> store.claim(key.storeKey(), owner, fingerprint, policy.lease()));
        } catch (IdempotencyStoreUnavailableException | IdempotencyConfigurationException e) {
            // A misconfigured store names its own fix; wrapping it as "unavailable, retry later" would hide it.
            throw e;
        } catch (RuntimeException e) {
            throw new IdempotencyStoreUnavailableException(
                    policy.name(),
                    key.hash(),
                    "The idempotency store failed while claiming key #" + key.hash() + " of operation '" + policy.name()
                            + "', so the operation did not run; retry later. Cause: " + e,
                    e);
        }
    }

    private static void pauseFor(long nanos, OperationPolicy policy, RecordKey key, Duration retryAfter) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdempotencyInProgressException(policy.name(), key.hash(), retryAfter);
        }
    }
}
