package dev.idempotency.it.http.app;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.IOException;
import java.util.UUID;

/**
 * What other providers add to every response, as an encoder and a request-id filter do: a writer
 * interceptor at the encoders' priority and a response filter that runs after the Idempotency-Key
 * filter's. A replay passes through them again, so what they add must not be stored as well.
 */
public final class ExchangeHeaders {

    private ExchangeHeaders() {}

    /** Marks the response as passed through an encoder (outside the filter's capture). */
    @Provider
    @Priority(Priorities.ENTITY_CODER)
    public static class Encoder implements WriterInterceptor {
        @Override
        public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
            context.getHeaders().add("X-Encoder", "ran");
            context.proceed();
        }
    }

    /** A request id per exchange; response filters run in descending priority, so after the guard's. */
    @Provider
    @Priority(Priorities.HEADER_DECORATOR)
    public static class RequestId implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            response.getHeaders().add("X-Request-Id", UUID.randomUUID().toString());
        }
    }
}
