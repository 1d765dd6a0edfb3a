package dev.idempotency.internal.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;

/**
 * Notes that a guarded request got past every request filter, so the resource method is called:
 * registered for every guarded method at the highest priority value, and post-matching request
 * filters run in ascending priority order, so it runs last. A request filter after the guard's (an
 * API key, tenant or signature check at {@code Priorities.USER} or later, or without a priority) that
 * answers with {@code abortWith}, or throws, stops the chain before it: the response then comes
 * without the resource method having run, and the guard gives the key back instead of storing that
 * response ({@link UnsettledRequest#reached}), so the corrected retry runs. A filter at this same
 * highest priority may run after it; it is then taken for the resource's.
 */
final class ResourceReached implements ContainerRequestFilter {

    /** Runs last among request filters (ascending order). */
    static final int PRIORITY = Integer.MAX_VALUE;

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.getProperty(UnsettledRequest.PROPERTY) instanceof UnsettledRequest pending) {
            pending.reachedResource();
        }
    }
}
