package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Asynchronous resource methods on a class that is not a CDI bean (no bean-defining annotation): the
 * response is produced 3 s after the method returned, on another thread.
 */
@Path("async")
@Idempotent(required = true)
@Consumes("text/plain")
public class AsyncOrdersResource {

    static final long DELAY_MILLIS = 3000;

    private static Counter counter() {
        return CDI.current().select(Counter.class).get();
    }

    /** Completes a CompletionStage later. */
    @POST
    @Path("stage")
    @Produces("text/plain")
    public CompletionStage<Response> stage(String body) {
        int run = counter().ran("async-stage:" + body);
        return CompletableFuture.supplyAsync(
                () -> Response.status(201).entity("stage " + body + " " + run).build(),
                CompletableFuture.delayedExecutor(DELAY_MILLIS, TimeUnit.MILLISECONDS));
    }

    /**
     * Times out after 1 s (JAX-RS answers 503) while its work goes on; the work ends 3 s after it
     * started and resumes too late.
     */
    @POST
    @Path("times-out")
    @Produces("text/plain")
    public void timesOut(String body, @Suspended AsyncResponse response) {
        Counter counter = counter();
        int run = counter.ran("async-times-out:" + body);
        response.setTimeout(1, TimeUnit.SECONDS);
        CompletableFuture.delayedExecutor(DELAY_MILLIS, TimeUnit.MILLISECONDS).execute(() -> {
            counter.ran("async-times-out-done:" + body);
            response.resume(
                    Response.status(201).entity("late " + body + " " + run).build());
        });
    }

    /** Resumes a suspended response later. */
    @POST
    @Path("suspended")
    @Produces("text/plain")
    public void suspended(String body, @Suspended AsyncResponse response) {
        int run = counter().ran("async-suspended:" + body);
        CompletableFuture.delayedExecutor(DELAY_MILLIS, TimeUnit.MILLISECONDS)
                .execute(() -> response.resume(Response.status(201)
                        .entity("suspended " + body + " " + run)
                        .build()));
    }
}
