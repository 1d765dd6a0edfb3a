package dev.idempotency.jaxrs;

import dev.idempotency.cdi.OuterGuard;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Settles what JAX-RS cannot: a resource method that threw an exception no {@code ExceptionMapper}
 * maps never reaches the response filters, so its key would stay claimed until the lease ends. At the
 * end of every servlet request, a key still owned by the request is released (the client got a 500),
 * and the thread's interceptor mark is cleared, so a pooled thread never carries it to the next
 * request. Discovered by the servlet container from this jar's {@link WebListener} annotation.
 */
@WebListener
public class RequestEnd implements ServletRequestListener {

    /** Creates the listener; the servlet container does this. */
    public RequestEnd() {}

    @Override
    public void requestInitialized(ServletRequestEvent event) {
        OuterGuard.clear();
    }

    @Override
    public void requestDestroyed(ServletRequestEvent event) {
        OuterGuard.clear();
        if (isAsyncStarted(event)) {
            // An asynchronous resource method (a CompletionStage, a suspended AsyncResponse) returned and
            // its response comes later, on another thread: the response filter and writer interceptor
            // settle the key then. Releasing here let a duplicate run while the first was still going.
            return;
        }
        if (event.getServletRequest().getAttribute(Pending.PROPERTY) instanceof Pending pending) {
            pending.release(dev.idempotency.core.ReleaseCause.EXCEPTION);
        }
    }

    private static boolean isAsyncStarted(ServletRequestEvent event) {
        try {
            return event.getServletRequest().isAsyncStarted();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
