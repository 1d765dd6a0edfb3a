package dev.idempotency.internal.jaxrs;

import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.ReleaseCause;
import dev.idempotency.spi.CallerTransactionRollingBackException;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * A request that owns its key and has not yet stored or released it. Settles exactly once, whichever
 * of the response filter, the writer interceptor or the end-of-request listener gets there first.
 */
final class UnsettledRequest {

    private static final System.Logger LOG = System.getLogger(UnsettledRequest.class.getName());

    /** Request property (a servlet request attribute under a servlet container) holding this object. */
    static final String PROPERTY = UnsettledRequest.class.getName();

    private final Admission.Owned claim;
    private final IdempotencyEngine engine;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile int status;

    private final RequestTransaction tx;
    private final String fingerprint;
    private final IntPredicate releases;

    /** Guarded by this: the claim is held after a timeout; a late outcome was seen; one seen before. */
    private boolean held;

    private boolean lateSeen;
    private Supplier<StoredResponse> late;
    /** Whether the body outlives the response ({@link #bodyOutlivesResponse}). */
    private volatile boolean outlived;
    /** Whether the request passed every request filter ({@link ResourceReached}). */
    private volatile boolean reached;

    /**
     * @param tx the transaction the filter began for a joined-mode operation, which settling ends; or
     *     {@code null}
     * @param fingerprint the request's fingerprint
     * @param releases the statuses that give the key back ({@link HttpSettings#releases})
     */
    UnsettledRequest(
            Admission.Owned claim,
            IdempotencyEngine engine,
            RequestTransaction tx,
            String fingerprint,
            IntPredicate releases) {
        this.claim = claim;
        this.engine = engine;
        this.tx = tx;
        this.fingerprint = fingerprint;
        this.releases = releases;
    }

    Admission.Owned claim() {
        return claim;
    }

    private volatile Set<String> resourceHeaders;

    /** Notes the (lower-case) names of the headers the resource set itself ({@link ResourceHeaders}). */
    void resourceHeaders(Set<String> names) {
        this.resourceHeaders = names;
    }

    /**
     * The headers to store: those the resource set itself, when {@link ResourceHeaders} noted them
     * (else all of them); {@code Content-Type} always, as the entity was written with it.
     */
    Map<String, List<String>> ownHeaders(Map<String, List<String>> headers) {
        Set<String> own = resourceHeaders;
        if (own == null) {
            return headers;
        }
        Map<String, List<String>> result = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-type") || own.contains(lower)) {
                result.put(name, values);
            }
        });
        return result;
    }

    /** Notes that the request passed every request filter: the resource method is called. */
    void reachedResource() {
        reached = true;
    }

    /**
     * Whether the request passed every request filter ({@link ResourceReached}). A response without
     * it was produced by a later request filter ({@code abortWith}, or an exception it threw), not by
     * the resource method, and is not the operation's outcome.
     */
    boolean reached() {
        return reached;
    }

    /** The status to store once the body is captured; 0 before the response filter ran. */
    int status() {
        return status;
    }

    void awaitBody(int status) {
        this.status = status;
    }

    boolean settled() {
        return settled.get();
    }

    /**
     * Stores the response, unless already settled. In a joined-mode transaction the record is written
     * in it and the transaction commits: the resource's work and the record together. A transaction
     * the work marked for rollback is rolled back instead (nothing was done): a 4xx is then stored in a
     * record of its own ({@link IdempotencyEngine#storeAfterRollback}), anything else lets a retry run.
     *
     * @throws IllegalStateException in a joined-mode transaction, the record could not be written or
     *     the commit failed; nothing was committed, and the captured response must not reach the client
     */
    void complete(StoredResponse response) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        if (tx == null) {
            engine.complete(claim, response.encode());
            return;
        }
        if (tx.rollbackOnly()) {
            tx.rollback();
            if (response.status() >= 400
                    && response.status() < 500
                    && engine.storeAfterRollback(claim, fingerprint, response.encode())) {
                // A kept 4xx (say a validation failure) whose transaction the work marked for rollback: its
                // work is undone, so the 4xx is kept apart and replayed, as a 4xx of the separate mode is.
                return;
            }
            claim.events().released(ReleaseCause.ROLLBACK);
            return;
        }
        boolean written;
        try {
            written = engine.completeInTransaction(claim, response.encode());
        } catch (CallerTransactionRollingBackException rollingBack) {
            // Marked for rollback since the check above (or rolling back): nothing is stored, the claim
            // rolls back with the work, and the response goes out as it is.
            tx.rollback();
            return;
        }
        if (!written) {
            // Committing now would commit the work without its record: a retry would run it again.
            tx.rollback();
            throw new IllegalStateException(
                    "The idempotency record of operation '" + claim.policy().name()
                            + "' could not be written in its transaction, so the transaction was rolled back and"
                            + " nothing was done; a retry runs again.");
        }
        tx.commit(claim.policy().name());
    }

    /**
     * Neither stores nor releases, unless already settled: the outcome is unknown (the request timed
     * out while its work may still run), so the claim is held for the retention ({@code IdempotencyEngine.hold}),
     * until the work's late outcome settles it ({@link #resumedLate}), if that is ever seen.
     */
    void hold() {
        Supplier<StoredResponse> early;
        synchronized (this) {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            held = true;
            early = late;
            late = null;
            lateSeen = early != null;
        }
        engine.hold(claim);
        if (early != null) {
            settleLate(early);
        }
    }

    /**
     * The work of a request that timed out ended ({@link LateResume}): its outcome settles the held
     * claim. Before {@link #hold()} ran (the timeout's response is still on its way) it is kept for it;
     * for a request settled otherwise it is ignored.
     */
    void resumedLate(Supplier<StoredResponse> outcome) {
        synchronized (this) {
            if (!held) {
                if (!settled.get()) {
                    late = outcome;
                }
                return;
            }
            if (lateSeen) {
                return;
            }
            lateSeen = true;
        }
        settleLate(outcome);
    }

    private void settleLate(Supplier<StoredResponse> outcome) {
        if (tx != null) {
            return; // an asynchronous method is refused in the joined mode; nothing to settle here
        }
        StoredResponse response;
        try {
            response = outcome.get();
        } catch (RuntimeException e) {
            // The work ended, but how is unknown: keep holding (a release could run it a second time).
            LOG.log(Level.DEBUG, "{0}: late outcome unreadable; the claim stays held: {1}", claim.key(), e.toString());
            return;
        }
        if (response == null) {
            engine.release(claim, ReleaseCause.EXCEPTION);
        } else if (releases.test(response.status())) {
            engine.release(claim, ReleaseCause.STATUS);
        } else {
            engine.complete(claim, response.encode());
        }
    }

    /**
     * A timeout between the guard and the resource method's body ended the response while the body may
     * run on: from now on a release holds the claim instead, until the body's outcome settles it
     * ({@link #resumedLate}).
     *
     * @return false in the joined mode, whose transaction (and claim) ends with the response
     */
    boolean bodyOutlivesResponse() {
        if (tx != null) {
            return false;
        }
        outlived = true;
        return true;
    }

    /**
     * Gives the key back, unless already settled, or holds it if the body outlives the response. In a
     * joined-mode transaction that is a rollback: the claim and the resource's work are undone together.
     */
    void release(ReleaseCause cause) {
        if (outlived) {
            hold();
            return;
        }
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        if (tx == null) {
            engine.release(claim, cause);
        } else {
            tx.rollback();
            claim.events().released(cause);
        }
    }
}
