package dev.idempotency.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.jaxrs.FilterMarks;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
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
 * so the interceptor lets through a call whose request the filter saw (a second guard would refuse the
 * filter's own call as one in progress), and refuses one the filter never saw, which would otherwise
 * run unguarded; its other guarded methods are the interceptor's as on any bean.
 */
@EnableWeld
class ResourceMethodsTest {

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(WeldBoot.weld(Map.of(), Orders.class))
            .activate(RequestScoped.class)
            .build();

    @Inject
    Orders orders;

    @Inject
    IdempotencyRuntime runtime;

    @Inject
    FilteredRequest request;

    @Test
    void theInterceptorLetsThroughAResourceMethodWhoseRequestTheFilterSaw() {
        String key = "o-" + System.nanoTime();
        FilterMarks.seen(request);
        assertThat(orders.place(key)).isEqualTo(1);
        FilterMarks.seen(request);
        assertThat(orders.place(key)).as("not replayed by the interceptor").isEqualTo(2);
        assertThat(runtime.plannedOperations()).doesNotContain("orders.place");
    }

    @Test
    void theInterceptorRefusesAResourceMethodWhoseRequestNoFilterSaw() {
        // As on a JAX-RS runtime that never registered the filter, or a direct Java call.
        assertThatThrownBy(() -> orders.place("p-" + System.nanoTime()))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining("ResourceMethodsTest$Orders#place")
                .hasMessageContaining("without the Idempotency-Key filter having seen its request");
        assertThat(orders.placed()).as("the refused method never ran").isZero();
    }

    @Test
    void whatTheFilterSawServesOneResourceMethodCall() {
        FilterMarks.seen(request);
        assertThat(orders.place("q-" + System.nanoTime())).isEqualTo(1);
        // A second resource method call in the same request (a direct call from the first) was not filtered.
        assertThatThrownBy(() -> orders.place("r-" + System.nanoTime()))
                .isInstanceOf(IdempotencyConfigurationException.class);
        assertThat(orders.placed()).isEqualTo(1);
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

        int placed() {
            return placed.get();
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
