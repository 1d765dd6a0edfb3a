package dev.idempotency.internal.jaxrs;

import dev.idempotency.internal.core.ReleaseCause;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.annotation.WebListener;
import java.lang.System.Logger.Level;

/**
 * Settles what JAX-RS cannot: a resource method that threw an exception no {@code ExceptionMapper}
 * maps never reaches the response filters, so its key would stay claimed until the lease ends. At the
 * end of every servlet request, a key still owned by the request is released (the client got a 500).
 * Discovered by the servlet container from this jar's {@link WebListener} annotation.
 *
 * <p>An asynchronous request (a {@code CompletionStage}, a suspended {@code AsyncResponse}) is settled
 * when its asynchronous processing ends, not when its first dispatch returns: by the response filter
 * and writer interceptor when it produced a response; otherwise (its stage failed with an unmapped
 * exception) by an {@link AsyncListener} this listener adds at the end of the first
 * dispatch, or, on containers that fire this event only once the asynchronous processing completed,
 * by this event then. A request whose asynchronous processing timed out without a response the
 * filters saw holds its key for the retention (see {@code IdempotencyEngine.hold}): its work may still
 * run. {@link LateResume} settles it with the work's late outcome where it can see it.
 */
@WebListener
public class ReleaseOnRequestEnd implements ServletRequestListener {

    private static final System.Logger LOG = System.getLogger(ReleaseOnRequestEnd.class.getName());

    /** Creates the listener; the servlet container does this. */
    public ReleaseOnRequestEnd() {}

    @Override
    public void requestDestroyed(ServletRequestEvent event) {
        ServletRequest request = event.getServletRequest();
        if (!(request.getAttribute(UnsettledRequest.PROPERTY) instanceof UnsettledRequest pending)
                || pending.settled()) {
            return;
        }
        if (isAsyncStarted(request)) {
            // The response comes later, on another thread: releasing now would let a duplicate run while
            // the first is still going.
            settleWhenAsyncEnds(request, pending);
            return;
        }
        pending.release(ReleaseCause.EXCEPTION);
    }

    private static void settleWhenAsyncEnds(ServletRequest request, UnsettledRequest pending) {
        try {
            request.getAsyncContext().addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent e) {
                    // A response the filters saw settled the key already; one they did not see (an
                    // unmapped exception, a timeout) was a 5xx: give the key back.
                    pending.release(ReleaseCause.EXCEPTION);
                }

                @Override
                public void onTimeout(AsyncEvent e) {
                    // The work may still run and resume later: an unknown outcome holds the key.
                    pending.hold();
                }

                @Override
                public void onError(AsyncEvent e) {}

                @Override
                public void onStartAsync(AsyncEvent e) {}
            });
        } catch (IllegalStateException e) {
            // Too late to listen: this container fires requestDestroyed again when the asynchronous
            // processing completes, and that event settles the key.
            LOG.log(
                    Level.DEBUG,
                    "no async listener for {0}: {1}",
                    pending.claim().key(),
                    e.toString());
        }
    }

    private static boolean isAsyncStarted(ServletRequest request) {
        try {
            return request.isAsyncStarted();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
