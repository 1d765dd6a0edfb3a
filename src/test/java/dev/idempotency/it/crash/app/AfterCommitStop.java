package dev.idempotency.it.crash.app;

import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Stops a request asking for {@link Crash#AFTER_COMMIT} once the idempotency filter has committed the
 * joined transaction and handed the body on, but before any byte reaches the client: an outer writer
 * interceptor (priority 1000, the library's is 5000) that buffers what the inner ones write.
 */
@Provider
@Priority(1000)
public class AfterCommitStop implements ContainerRequestFilter, WriterInterceptor {

    private static final String PROPERTY = AfterCommitStop.class.getName();

    @Override
    public void filter(ContainerRequestContext request) {
        if (Crash.AFTER_COMMIT.equals(request.getHeaderString("X-Crash"))) {
            request.setProperty(PROPERTY, Boolean.TRUE);
        }
    }

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        if (context.getProperty(PROPERTY) == null) {
            context.proceed();
            return;
        }
        OutputStream original = context.getOutputStream();
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        context.setOutputStream(held);
        context.proceed();
        context.setOutputStream(original);
        String body = held.toString(StandardCharsets.UTF_8);
        Crash.here(body.substring(body.indexOf(' ') + 1), Crash.AFTER_COMMIT);
    }
}
