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
        if (event.getServletRequest().getAttribute(Pending.PROPERTY) instanceof Pending pending) {
            pending.release(dev.idempotency.core.ReleaseCause.EXCEPTION);
        }
    }
}
