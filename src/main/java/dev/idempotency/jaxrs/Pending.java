package dev.idempotency.jaxrs;

import dev.idempotency.core.Claim;
import dev.idempotency.core.IdempotencyEngine;
import dev.idempotency.core.ReleaseCause;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request that owns its key and has not yet stored or released it. Settles exactly once, whichever
 * of the response filter, the writer interceptor or the end-of-request listener gets there first.
 */
final class Pending {

    /** Request property (a servlet request attribute under a servlet container) holding this object. */
    static final String PROPERTY = Pending.class.getName();

    private final Claim.Owned claim;
    private final IdempotencyEngine engine;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile int status;

    Pending(Claim.Owned claim, IdempotencyEngine engine) {
        this.claim = claim;
        this.engine = engine;
    }

    Claim.Owned claim() {
        return claim;
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

    /** Stores the response, unless already settled. */
    void complete(StoredResponse response) {
        if (settled.compareAndSet(false, true)) {
            engine.complete(claim, response.encode());
        }
    }

    /** Gives the key back, unless already settled. */
    void release(ReleaseCause cause) {
        if (settled.compareAndSet(false, true)) {
            engine.release(claim, cause);
        }
    }
}
