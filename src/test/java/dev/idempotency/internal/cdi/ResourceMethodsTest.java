package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * A JAX-RS resource that is also a CDI bean: the JAX-RS filter guards its resource methods over HTTP,
 * so the interceptor lets them through (a second guard would refuse the filter's own call as one in
 * progress); its other guarded methods are the interceptor's as on any bean.
 */
@EnableWeld
class ResourceMethodsTest {

    @WeldSetup
    WeldInitiator weld = WeldBoot.initiator(Map.of(), Orders.class);

    @Inject
    Orders orders;

    @Inject
    IdempotencyRuntime runtime;

    @Test
    void theInterceptorLetsAResourceMethodThrough() {
        String key = "o-" + System.nanoTime();
        assertThat(orders.place(key)).isEqualTo(1);
        assertThat(orders.place(key)).as("not replayed by the interceptor").isEqualTo(2);
        assertThat(runtime.plannedOperations()).doesNotContain("orders.place");
    }

    @Test
    void theInterceptorGuardsTheOtherMethodsOfTheClass() {
        String key = "n-" + System.nanoTime();
        int first = orders.notify(key);
        assertThat(orders.notify(key)).as("replayed").isEqualTo(first);
        assertThat(runtime.plannedOperations()).contains("orders.notify");
    }

    /** A resource class with a class-level {@code @Idempotent}. */
    @Path("orders")
    @ApplicationScoped
    @Idempotent(name = "orders")
    public static class Orders {
        private final AtomicInteger placed = new AtomicInteger();
        private final AtomicInteger notified = new AtomicInteger();

        @POST
        public int place(@IdempotencyKey String key) {
            return placed.incrementAndGet();
        }

        public int notify(@IdempotencyKey String key) {
            return notified.incrementAndGet();
        }

        /** Its HTTP response is what the filter stores: a Response type is never read back by JSON-B. */
        @POST
        @Path("receipts")
        public Response receipt(String body) {
            return Response.ok(body).build();
        }

        @POST
        @Path("later")
        public CompletionStage<Response> later(String body) {
            return CompletableFuture.completedFuture(Response.ok(body).build());
        }
    }

    @Test
    void resourceMethodsReturningResponsesDeployAndAreNotPlanned() {
        assertThat(runtime.plannedOperations()).doesNotContain("orders.receipt", "orders.later");
    }
}
