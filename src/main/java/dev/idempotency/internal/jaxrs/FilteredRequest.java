package dev.idempotency.internal.jaxrs;

import jakarta.enterprise.context.RequestScoped;

/**
 * What the Idempotency-Key filter left for the resource method of the current request: that it ran
 * (for a guarded method's request, before the resource method is called), and the claim the request
 * owns, if any. The CDI interceptor reads it to tell a resource method the filter guards from one it
 * never saw: without the filter (a JAX-RS runtime that does not load this jar's providers, a direct
 * Java call of a resource method) the interceptor refuses the call rather than run it unguarded.
 *
 * <p>Request-scoped, so that it needs no Servlet API: the filter and the resource method of one
 * request see one instance on every runtime (Jakarta REST runs both inside the request context).
 * Internal.
 */
@RequestScoped
public class FilteredRequest {

    /** What {@link #take} returns for a request the filter did not see. */
    public static final Object NOT_FILTERED = new Object();

    private boolean filtered;
    private Object pending;

    /** For CDI. */
    public FilteredRequest() {}

    /** The filter ran for this request's resource method; no claim yet. */
    void filtered() {
        filtered = true;
        pending = null;
    }

    /** The request owns {@code claim}. */
    void owns(UnsettledRequest claim) {
        filtered = true;
        pending = claim;
    }

    /**
     * What the filter left, once: the request's claim (an {@link UnsettledRequest}, see {@link
     * LateResume#owns}), {@code null} when the filter let the request through without one (an optional
     * key not sent, an unguarded HTTP method), or {@link #NOT_FILTERED}. Taken by the first resource
     * method call, so that a second resource method the first one calls directly is not taken for a
     * filtered one.
     */
    public Object take() {
        if (!filtered) {
            return NOT_FILTERED;
        }
        filtered = false;
        Object p = pending;
        pending = null;
        return p;
    }
}
