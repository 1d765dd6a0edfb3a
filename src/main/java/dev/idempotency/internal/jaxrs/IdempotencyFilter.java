package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationEvents;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.core.ReleaseCause;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.RuntimeDelegate;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Guards one resource method: reads the key, claims it through the engine, replays or refuses, and
 * stores the response. Registered per resource method by {@link IdempotencyFeature}.
 *
 * <p>The response is captured innermost among writer interceptors (priority {@code USER}), so an
 * encoder such as GZIP runs again on replay instead of being applied twice. The body is buffered and
 * stored <em>before</em> it is written to the client, so a client that went away cannot prevent the
 * outcome from being recorded. No-entity responses are stored by the response filter. A response the
 * resource method did not produce (a later request filter aborted: {@link ResourceReached}) gives the
 * key back.
 */
final class IdempotencyFilter implements ContainerRequestFilter, ContainerResponseFilter, WriterInterceptor {

    /** Header added to every replayed response. */
    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** Retry-After of a 503 when the store is unreachable. */
    static final long STORE_RETRY_AFTER_SECONDS = 5;

    private static final System.Logger LOG = System.getLogger(IdempotencyFilter.class.getName());

    private final Method resourceMethod;
    private final boolean guarded;
    private final OperationPolicy policy;
    private final IdempotencyEngine engine;
    private final HttpSettings http;
    /** The request-scoped note the CDI interceptor reads (a client proxy: one for every request). */
    private final FilteredRequest seen;

    private final OperationEvents events;
    private final boolean joined;
    /** The method resumes a {@code @Suspended AsyncResponse}, which answers 503 when it times out. */
    private final boolean suspended;
    /** Looked up on the first joined request, not per request (a JNDI lookup on the request path). */
    private volatile jakarta.transaction.UserTransaction userTransaction;

    /**
     * @param resourceMethod the method this instance serves
     * @param guarded whether its HTTP method is guarded; if not, the filter only keeps the CDI
     *     interceptor off the resource method, so that e.g. a GET is never replayed
     * @param policy the operation's policy, with its HTTP operation name
     * @param engine the application's engine
     * @param http the HTTP settings
     * @param seen where the filter tells the CDI interceptor that it saw the request
     */
    IdempotencyFilter(
            Method resourceMethod,
            boolean guarded,
            OperationPolicy policy,
            IdempotencyEngine engine,
            HttpSettings http,
            FilteredRequest seen) {
        this.resourceMethod = resourceMethod;
        this.guarded = guarded;
        this.policy = policy;
        this.engine = engine;
        this.http = http;
        this.seen = seen;
        // Only guarded methods are operations; a GET on an @Idempotent class is not counted.
        this.events = guarded ? engine.events(policy.name()) : OperationEvents.NONE;
        // The store writes this operation's records in the caller's transaction: the filter begins it.
        this.joined = guarded && policy.joined();
        if (guarded) {
            engine.planned(policy, "HTTP");
        }
        this.suspended = IdempotencyFeature.isSuspended(resourceMethod);
    }

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        // First, whatever follows: the interceptor refuses a resource method whose request this filter never saw.
        seen.filtered();
        if (!guarded) {
            return;
        }
        KeyHeader.Parsed parsed =
                KeyHeader.parse(request.getHeaders().get(http.header()), http.header(), http.keyMaxLength());
        if (parsed.problem() != null) {
            abort(request, Problems.keyInvalid(parsed.problem()));
            return;
        }
        if (parsed.missing()) {
            if (policy.required()) {
                events.keyMissing();
                abort(request, Problems.keyMissing(http.header(), policy.name()));
            }
            return;
        }
        String scope = scope(request);
        if (scope == null) {
            return;
        }
        byte[] body = request.getEntityStream().readAllBytes();
        // The resource still reads the body: hand it a fresh stream over the same bytes.
        request.setEntityStream(new ByteArrayInputStream(body));
        URI uri = request.getUriInfo().getRequestUri();
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : http.fingerprintHeaders()) {
            List<String> values = request.getHeaders().get(name);
            headers.put(name, values == null ? List.of() : values);
        }
        String fingerprint = Fingerprint.of(request.getMethod(), uri.getRawPath(), uri.getRawQuery(), headers, body);
        RecordKey key = engine.key(policy.name(), scope, parsed.key());
        RequestTransaction tx = null;
        Admission claim;
        try {
            tx = joined ? RequestTransaction.begin(policy.name(), userTransaction()) : null;
            claim = engine.begin(policy, key, fingerprint, events);
        } catch (IdempotencyKeyMismatchException e) {
            rollback(tx);
            abort(request, Problems.keyMismatch(http.header(), policy.name()));
            return;
        } catch (IdempotencyInProgressException e) {
            rollback(tx);
            abort(request, Problems.inProgress(http.header(), policy.name(), e.retryAfter()));
            return;
        } catch (IdempotencyStoreUnavailableException e) {
            rollback(tx);
            if (http.failOpen()) {
                LOG.log(
                        Level.WARNING,
                        "{0}: the idempotency store is unreachable; running unguarded because {1}=true ({2})",
                        key,
                        HttpSettings.FAIL_OPEN,
                        e.getMessage());
                return;
            }
            LOG.log(
                    Level.WARNING,
                    "{0}: the idempotency store is unreachable; answering 503 ({1})",
                    key,
                    e.getMessage());
            abort(request, Problems.storeUnavailable(policy.name()));
            return;
        }
        if (claim instanceof Admission.Replay replay) {
            rollback(tx);
            abort(request, replay(replay, key));
            return;
        }
        UnsettledRequest pending =
                new UnsettledRequest((Admission.Owned) claim, engine, tx, fingerprint, http::releases);
        request.setProperty(UnsettledRequest.PROPERTY, pending);
        seen.owns(pending);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(UnsettledRequest.PROPERTY) instanceof UnsettledRequest pending)
                || pending.settled()) {
            return;
        }
        int status = response.getStatus();
        if (!pending.reached()) {
            // A request filter after this one (an API key, tenant or signature check) answered: the resource
            // method never ran. Storing that answer would replay it to the corrected retry.
            LOG.log(
                    Level.DEBUG,
                    "{0}: status {1} came from a request filter before the resource method ran; the key is released",
                    pending.claim().key(),
                    status);
            pending.release(ReleaseCause.STATUS);
            return;
        }
        if (suspended && status == Response.Status.SERVICE_UNAVAILABLE.getStatusCode()) {
            // The status JAX-RS answers when a suspended response times out: the work may still run, so
            // its outcome is unknown until a late resume (LateResume), if any. Releasing would run it again.
            LOG.log(
                    Level.DEBUG,
                    "{0}: suspended response answered 503 (a timeout); the key stays claimed until its late"
                            + " resume or for the retention",
                    pending.claim().key());
            pending.hold();
        } else if (http.releases(status)) {
            LOG.log(
                    Level.DEBUG,
                    "{0}: status {1} releases the key",
                    pending.claim().key(),
                    status);
            pending.release(ReleaseCause.STATUS);
        } else if (!response.hasEntity()) {
            pending.complete(new StoredResponse(
                    status,
                    pending.ownHeaders(StoredResponse.storableHeaders(response.getStringHeaders())),
                    new byte[0],
                    true,
                    0));
        } else {
            pending.awaitBody(status);
        }
    }

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        if (!(context.getProperty(UnsettledRequest.PROPERTY) instanceof UnsettledRequest pending)
                || pending.settled()
                || pending.status() == 0) {
            context.proceed();
            return;
        }
        OutputStream original = context.getOutputStream();
        Capture capture = new Capture(original, http.maxStoredBody());
        context.setOutputStream(capture);
        try {
            context.proceed();
        } catch (IOException | RuntimeException | Error e) {
            if (capture.overflowed) {
                // Part of the response already went out, so the operation's outcome is final: never re-run.
                pending.complete(notStored(pending, context, capture.size));
            } else {
                // The entity could not be written (a getter threw, no MessageBodyWriter, a lazy
                // relation): the resource method returned, so its effect happened. Record that it ran
                // without a replayable response; repeats get a problem, never a second run.
                pending.complete(notWritten(pending, context, e));
            }
            throw e;
        } finally {
            context.setOutputStream(original);
        }
        if (capture.overflowed) {
            pending.complete(notStored(pending, context, capture.size));
            return;
        }
        byte[] body = capture.buffer.toByteArray();
        // Recorded before the first byte goes to the client (rule 8): a disconnect cannot lose it.
        pending.complete(
                new StoredResponse(pending.status(), pending.ownHeaders(headers(context)), body, true, body.length));
        original.write(body);
    }

    private StoredResponse notStored(UnsettledRequest pending, WriterInterceptorContext context, long size) {
        int status = pending.status();
        LOG.log(
                Level.WARNING,
                "{0}: response body exceeds {1} ({2} bytes); repeats will get 409 response-not-stored",
                policy.name(),
                HttpSettings.MAX_STORED_BODY,
                Integer.toString(http.maxStoredBody()));
        return new StoredResponse(status, pending.ownHeaders(headers(context)), new byte[0], false, size);
    }

    private StoredResponse notWritten(UnsettledRequest pending, WriterInterceptorContext context, Throwable cause) {
        int status = pending.status();
        LOG.log(
                Level.WARNING,
                "{0}: the resource method returned (status {1}) but its response could not be written ({2});"
                        + " the operation is recorded as done without a replayable response, and repeats with"
                        + " this key get 409 response-not-replayable. Fix the entity''s serialization.",
                policy.name(),
                Integer.toString(status),
                cause.toString());
        return new StoredResponse(
                status, pending.ownHeaders(headers(context)), new byte[0], false, StoredResponse.NOT_WRITTEN);
    }

    private Response replay(Admission.Replay replay, RecordKey key) {
        StoredResponse stored;
        try {
            stored = StoredResponse.decode(replay.outcome());
        } catch (IllegalArgumentException e) {
            LOG.log(Level.ERROR, "{0}: stored response unreadable: {1}", key, e.getMessage());
            return Problems.unreadable(policy.name());
        }
        Response.ResponseBuilder b;
        if (stored.bodyStored()) {
            b = Response.status(stored.status());
            stored.headers().forEach((name, values) -> values.forEach(v -> b.header(name, v)));
            if (stored.body().length > 0) {
                b.entity(stored.body());
            }
        } else if (stored.bodySize() == StoredResponse.NOT_WRITTEN) {
            b = Response.fromResponse(Problems.notWritten(policy.name(), stored.status()));
            copyLocationAndETag(stored, b);
        } else {
            b = Response.fromResponse(
                    Problems.notStored(policy.name(), stored.status(), stored.bodySize(), http.maxStoredBody()));
            copyLocationAndETag(stored, b);
        }
        return b.header(REPLAYED_HEADER, "true").build();
    }

    /** A response that is not replayed still says where the created resource is. */
    private static void copyLocationAndETag(StoredResponse stored, Response.ResponseBuilder b) {
        stored.headers().forEach((name, values) -> {
            if (name.equalsIgnoreCase("Location") || name.equalsIgnoreCase("ETag")) {
                values.forEach(v -> b.header(name, v));
            }
        });
    }

    /** The caller's scope, or {@code null} after aborting because a scope header is missing. */
    private String scope(ContainerRequestContext request) {
        HttpSettings.Scope scope = http.scope();
        switch (scope.kind()) {
            case HttpSettings.Scope.PRINCIPAL: {
                Principal p = request.getSecurityContext() == null
                        ? null
                        : request.getSecurityContext().getUserPrincipal();
                return p == null ? RecordKey.ANONYMOUS : "principal:" + p.getName();
            }
            case HttpSettings.Scope.HEADER: {
                List<String> values = request.getHeaders().get(scope.headerName());
                if (values == null || values.size() != 1 || values.get(0).isBlank()) {
                    abort(
                            request,
                            Problems.scopeMissing("Idempotency keys are scoped by the " + scope.headerName()
                                    + " header (" + HttpSettings.SCOPE + "), which must be sent exactly once"
                                    + " and not be blank with a " + http.header() + "; send it."));
                    return null;
                }
                return "header:" + values.get(0).strip();
            }
            default:
                return "";
        }
    }

    private jakarta.transaction.UserTransaction userTransaction() {
        jakarta.transaction.UserTransaction ut = userTransaction;
        if (ut == null) {
            ut = RequestTransaction.lookup(policy.name());
            userTransaction = ut;
        }
        return ut;
    }

    private static void rollback(RequestTransaction tx) {
        if (tx != null) {
            tx.rollback();
        }
    }

    private static void abort(ContainerRequestContext request, Response response) {
        request.abortWith(response);
    }

    /** The storable response headers as text, with the final Content-Type. */
    private static Map<String, List<String>> headers(WriterInterceptorContext context) {
        Map<String, List<String>> text = new LinkedHashMap<>();
        context.getHeaders().forEach((name, values) -> {
            if (name == null || name.equalsIgnoreCase("Content-Type") || values == null) {
                return;
            }
            List<String> list = new ArrayList<>(values.size());
            for (Object v : values) {
                list.add(headerText(v));
            }
            text.put(name, list);
        });
        MediaType type = context.getMediaType();
        if (type != null) {
            text.put("Content-Type", List.of(headerText(type)));
        }
        return StoredResponse.storableHeaders(text);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String headerText(Object value) {
        if (value instanceof String s) {
            return s;
        }
        try {
            RuntimeDelegate.HeaderDelegate delegate =
                    RuntimeDelegate.getInstance().createHeaderDelegate(value.getClass());
            if (delegate != null) {
                return delegate.toString(value);
            }
        } catch (RuntimeException e) {
            // No delegate for this type: its toString is what the container writes too.
        }
        return value.toString();
    }

    /** Buffers up to a limit; beyond it, flushes the buffer and passes everything through. */
    private static final class Capture extends OutputStream {
        private final OutputStream target;
        private final int max;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private boolean overflowed;
        private long size;

        Capture(OutputStream target, int max) {
            this.target = target;
            this.max = max;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            size += len;
            if (!overflowed && buffer.size() + (long) len > max) {
                overflowed = true;
                buffer.writeTo(target);
                buffer.reset();
            }
            if (overflowed) {
                target.write(b, off, len);
            } else {
                buffer.write(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            if (overflowed) {
                target.flush();
            }
        }
    }
}
