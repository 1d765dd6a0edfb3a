package dev.idempotency.internal.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Notes which response headers the resource itself set, before any other response filter or writer
 * interceptor adds its own: registered for every guarded method at the highest priority value, and
 * response filters run in descending priority order, so it runs first. Only those headers are stored
 * and replayed. A replayed response passes through the other filters and interceptors again (an
 * encoder adds {@code Content-Encoding} for the retry's {@code Accept-Encoding}, a filter its own
 * request id), so storing what they added would send it twice, or describe an encoding the replayed
 * body does not have.
 */
final class ResourceHeaders implements ContainerResponseFilter {

    /** Runs first among response filters (descending order). */
    static final int PRIORITY = Integer.MAX_VALUE;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(UnsettledRequest.PROPERTY) instanceof UnsettledRequest pending && !pending.settled()) {
            Set<String> names = new HashSet<>();
            for (String name : response.getHeaders().keySet()) {
                if (name != null) {
                    names.add(name.toLowerCase(Locale.ROOT));
                }
            }
            pending.resourceHeaders(names);
        }
    }
}
