package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
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
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Asynchronous resource methods on a class that is not a CDI bean (no bean-defining annotation): the
 * response is produced 3 s after the method returned, on a thread of the server's managed scheduled
 * executor, as a Jakarta EE application does. (Not the JDK's common pool: on Java 25 its threads run
 * without the application's context, and GlassFish 8's Weld then refuses every CDI call from them,
 * Jersey's own resume included, with WELD-000229.)
 */
@Path("async")
@Idempotent(required = true)
@Consumes("text/plain")
public class AsyncOrdersResource {

    static final long DELAY_MILLIS = 3000;

    private static Counter counter() {
        return CDI.current().select(Counter.class).get();
    }

    /** Runs the task {@link #DELAY_MILLIS} later on the server's managed scheduled executor. */
    static void later(Runnable task) {
        try {
            ManagedScheduledExecutorService executor = (ManagedScheduledExecutorService)
                    new InitialContext().lookup("java:comp/DefaultManagedScheduledExecutorService");
            executor.schedule(task, DELAY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (NamingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Completes a CompletionStage later. */
    @POST
    @Path("stage")
    @Produces("text/plain")
    public CompletionStage<Response> stage(String body) {
        int run = counter().ran("async-stage:" + body);
        CompletableFuture<Response> response = new CompletableFuture<>();
        later(() -> response.complete(
                Response.status(201).entity("stage " + body + " " + run).build()));
        return response;
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
        later(() -> {
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
        later(() -> response.resume(
                Response.status(201).entity("suspended " + body + " " + run).build()));
    }
}
