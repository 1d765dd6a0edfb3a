package dev.idempotency.internal.jaxrs;

import dev.idempotency.internal.core.GuardedMethod;
import dev.idempotency.internal.core.WorkTransactions;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.TimeoutHandler;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sees the response of a suspended resource method that comes after its {@code AsyncResponse} timed
 * out. JAX-RS answered the timeout with 503 and ignores the late {@code resume} (it returns false);
 * no filter runs for it. The CDI interceptor of a resource class that is a CDI bean hands the method
 * {@link #watch watched} {@code AsyncResponse} instead of the container's, so that the request's held
 * claim gets the work's real outcome: a response is stored and replayed, a failure releases the key.
 *
 * <p>A late response is not written by the container, so it is rendered here: a {@code byte[]} or
 * {@code String} entity as is, any other entity as JSON with JSON-B when its media type (the
 * response's, else the method's {@code @Produces}) is JSON. An entity it cannot render is recorded as
 * done without a replayable response (a repeat gets 409 {@code response-not-replayable}, never a second
 * run). A late {@code Throwable} releases the key, unless it is a {@code WebApplicationException},
 * whose response is handled as a response.
 */
public final class LateResume {

    private LateResume() {}

    /**
     * The {@code AsyncResponse} to hand the resource method: a watched one when the request owns a
     * claim (what the filter left: {@link FilteredRequest}), else {@code response} itself.
     *
     * @param response the container's {@code AsyncResponse}
     * @param claim the request's claim as {@link FilteredRequest#take} gave it, or {@code null}
     * @param method the resource method, for its {@code @Produces}
     */
    public static AsyncResponse watch(AsyncResponse response, Object claim, Method method) {
        if (!(claim instanceof UnsettledRequest pending) || pending.settled()) {
            return response;
        }
        return new Watched(response, pending, method);
    }

    /** Whether {@code claim} is a claim its request owns and has not settled yet. */
    public static boolean owns(Object claim) {
        return claim instanceof UnsettledRequest pending && !pending.settled();
    }

    /**
     * The resource method failed with {@code failure} before its body ended, or while it runs on: if
     * that is a timeout (Fault Tolerance's {@code @Timeout}), the request's claim is held until the
     * body ends, and the body's own outcome then settles it as a late resume does (a body that threw,
     * its own timeout included, releases it, as an unmapped exception does). Does nothing for another
     * failure or in the joined mode, whose transaction ends with the response.
     *
     * @param claim the request's claim as {@link FilteredRequest#take} gave it
     * @param body where the body reports how it ended
     * @param method the resource method, for its {@code @Produces}
     */
    public static void timedOut(Object claim, Throwable failure, WorkTransactions body, Method method) {
        if (!GuardedMethod.isTimeout(failure)
                || !(claim instanceof UnsettledRequest pending)
                || !pending.bodyOutlivesResponse()) {
            return;
        }
        body.afterBody((value, thrown) -> {
            Object outcome = thrown == null ? value : GuardedMethod.unwrap(thrown);
            pending.resumedLate(() -> render(outcome, produces(method)));
        });
    }

    private static MediaType produces(Method method) {
        Produces p = method.getAnnotation(Produces.class);
        if (p == null) {
            p = method.getDeclaringClass().getAnnotation(Produces.class);
        }
        if (p != null) {
            for (String value : p.value()) {
                for (String type : value.split(",")) {
                    MediaType m = MediaType.valueOf(type.strip());
                    if (!m.isWildcardType() && !m.isWildcardSubtype()) {
                        return m;
                    }
                }
            }
        }
        return null;
    }

    /**
     * The response to store for a late outcome; {@code null} when it releases the key (a failure).
     *
     * @param outcome what the work resumed with: a {@code Response}, an entity, or a {@code Throwable}
     * @param produces the method's media type, or {@code null}
     */
    static StoredResponse render(Object outcome, MediaType produces) {
        if (outcome instanceof Throwable && !(outcome instanceof WebApplicationException)) {
            return null;
        }
        try {
            return rendered(outcome, produces);
        } catch (RuntimeException e) {
            // The work succeeded, but its response cannot be read here: done, without a replayable response.
            int status = outcome instanceof Response r ? r.getStatus() : 200;
            return new StoredResponse(status, Map.of(), new byte[0], false, StoredResponse.NOT_WRITTEN);
        }
    }

    private static StoredResponse rendered(Object outcome, MediaType produces) {
        Response response;
        if (outcome instanceof WebApplicationException e) {
            response = e.getResponse();
        } else if (outcome instanceof Throwable) {
            return null;
        } else if (outcome instanceof Response r) {
            response = r;
        } else {
            response = outcome == null
                    ? Response.noContent().build()
                    : Response.ok(outcome).build();
        }
        Map<String, List<String>> headers = new LinkedHashMap<>(response.getStringHeaders());
        headers.keySet().removeIf(name -> name.equalsIgnoreCase("Content-Type"));
        Object entity = response.getEntity();
        if (entity == null) {
            return new StoredResponse(
                    response.getStatus(), StoredResponse.storableHeaders(headers), new byte[0], true, 0);
        }
        MediaType type = response.getMediaType() != null ? response.getMediaType() : produces;
        byte[] body = body(entity, type);
        if (body == null) {
            return new StoredResponse(
                    response.getStatus(),
                    StoredResponse.storableHeaders(headers),
                    new byte[0],
                    false,
                    StoredResponse.NOT_WRITTEN);
        }
        if (type == null) {
            type = entity instanceof String ? MediaType.TEXT_PLAIN_TYPE : MediaType.APPLICATION_OCTET_STREAM_TYPE;
        }
        headers.put("Content-Type", List.of(type.toString()));
        return new StoredResponse(
                response.getStatus(), StoredResponse.storableHeaders(headers), body, true, body.length);
    }

    /** The entity's bytes, or {@code null} when it cannot be rendered faithfully here. */
    private static byte[] body(Object entity, MediaType type) {
        if (entity instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (entity instanceof String text) {
            return text.getBytes(charset(type));
        }
        if (type != null && isJson(type)) {
            try {
                return Json.JSONB.toJson(entity).getBytes(charset(type));
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean isJson(MediaType type) {
        return type.getSubtype().equalsIgnoreCase("json")
                || type.getSubtype().toLowerCase(java.util.Locale.ROOT).endsWith("+json");
    }

    private static Charset charset(MediaType type) {
        String name = type == null ? null : type.getParameters().get(MediaType.CHARSET_PARAMETER);
        try {
            return name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /** Created on the first late JSON entity only. */
    private static final class Json {
        static final Jsonb JSONB = JsonbBuilder.create();
    }

    /** The container's {@code AsyncResponse}, and a late outcome handed to the held claim. */
    private static final class Watched implements AsyncResponse {
        private final AsyncResponse delegate;
        private final UnsettledRequest pending;
        private final Method method;

        Watched(AsyncResponse delegate, UnsettledRequest pending, Method method) {
            this.delegate = delegate;
            this.pending = pending;
            this.method = method;
        }

        private boolean seen(boolean resumed, Object outcome) {
            if (!resumed) {
                // Rendered only for a late outcome, which is rare: nothing is looked up per call.
                pending.resumedLate(() -> render(outcome, produces(method)));
            }
            return resumed;
        }

        @Override
        public boolean resume(Object response) {
            return seen(delegate.resume(response), response);
        }

        @Override
        public boolean resume(Throwable response) {
            return seen(delegate.resume(response), response);
        }

        @Override
        public boolean cancel() {
            return seen(delegate.cancel(), new IllegalStateException("cancelled"));
        }

        @Override
        public boolean cancel(int retryAfter) {
            return seen(delegate.cancel(retryAfter), new IllegalStateException("cancelled"));
        }

        @Override
        public boolean cancel(Date retryAfter) {
            return seen(delegate.cancel(retryAfter), new IllegalStateException("cancelled"));
        }

        @Override
        public boolean isSuspended() {
            return delegate.isSuspended();
        }

        @Override
        public boolean isCancelled() {
            return delegate.isCancelled();
        }

        @Override
        public boolean isDone() {
            return delegate.isDone();
        }

        @Override
        public boolean setTimeout(long time, TimeUnit unit) {
            return delegate.setTimeout(time, unit);
        }

        @Override
        public void setTimeoutHandler(TimeoutHandler handler) {
            delegate.setTimeoutHandler(handler);
        }

        @Override
        public Collection<Class<?>> register(Class<?> callback) {
            return delegate.register(callback);
        }

        @Override
        public Map<Class<?>, Collection<Class<?>>> register(Class<?> callback, Class<?>... callbacks) {
            return delegate.register(callback, callbacks);
        }

        @Override
        public Collection<Class<?>> register(Object callback) {
            return delegate.register(callback);
        }

        @Override
        public Map<Class<?>, Collection<Class<?>>> register(Object callback, Object... callbacks) {
            return delegate.register(callback, callbacks);
        }
    }
}
