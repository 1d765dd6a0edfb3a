package dev.idempotency.it.http.app;

import jakarta.annotation.Priority;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * An application's API key check, as request filters at several priorities around the Idempotency-Key
 * filter's ({@code Priorities.USER}): each answers 401 to a request without {@value #API_KEY}, when the
 * request's {@value #GATE} header names it (so that the other tests of a deployment pass untouched).
 */
public final class ApiKeyGates {

    /** Names the gate that checks the request: one of the {@code NAME}s below. */
    public static final String GATE = "X-Api-Gate";

    /** The API key; any value passes. */
    public static final String API_KEY = "X-Api-Key";

    private ApiKeyGates() {}

    static void check(ContainerRequestContext request, String name, boolean thrown) {
        if (!name.equals(request.getHeaderString(GATE)) || request.getHeaderString(API_KEY) != null) {
            return;
        }
        Response refusal = Response.status(Response.Status.UNAUTHORIZED)
                .header("WWW-Authenticate", "ApiKey")
                .entity("api key missing")
                .type("text/plain")
                .build();
        if (thrown) {
            throw new NotAuthorizedException(refusal);
        }
        request.abortWith(refusal);
    }

    /** Right after the Idempotency-Key filter, which has claimed the key by then. */
    @Provider
    @Priority(Priorities.USER + 1)
    public static class AfterGuard implements ContainerRequestFilter {
        /** Its {@value #GATE} value. */
        public static final String NAME = "after-guard";

        @Override
        public void filter(ContainerRequestContext request) {
            check(request, NAME, false);
        }
    }

    /** No {@code @Priority}: {@code USER}, the Idempotency-Key filter's, in an order JAX-RS leaves open. */
    @Provider
    public static class Unprioritized implements ContainerRequestFilter {
        /** Its {@value #GATE} value. */
        public static final String NAME = "unprioritized";

        @Override
        public void filter(ContainerRequestContext request) {
            check(request, NAME, false);
        }
    }

    /** After the guard, refusing with an exception instead of {@code abortWith}. */
    @Provider
    @Priority(Priorities.USER + 2)
    public static class Throwing implements ContainerRequestFilter {
        /** Its {@value #GATE} value. */
        public static final String NAME = "throwing";

        @Override
        public void filter(ContainerRequestContext request) {
            check(request, NAME, true);
        }
    }

    /** At the authentication priority, before the Idempotency-Key filter: nothing is claimed yet. */
    @Provider
    @Priority(Priorities.AUTHENTICATION)
    public static class Authentication implements ContainerRequestFilter {
        /** Its {@value #GATE} value. */
        public static final String NAME = "authentication";

        @Override
        public void filter(ContainerRequestContext request) {
            check(request, NAME, false);
        }
    }
}
