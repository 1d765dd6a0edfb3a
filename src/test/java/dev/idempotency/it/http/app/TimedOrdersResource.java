package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Resource methods with MicroProfile Fault Tolerance's {@code @Timeout} (a CDI bean, as Fault Tolerance
 * needs): the request fails at {@link #TIMEOUT_MILLIS} while the body runs on for {@link #WORK_MILLIS},
 * ignoring the interrupt as a blocking call does, and then answers 201. Where the server has no Fault
 * Tolerance the annotations are inert and the methods simply answer late ({@link #faultTolerance}).
 */
@ApplicationScoped
@Path("timed")
@Idempotent(required = true)
@Consumes("text/plain")
@Produces("text/plain")
public class TimedOrdersResource {

    /** How long the request waits. */
    public static final long TIMEOUT_MILLIS = 300;

    /** How long the body runs. */
    public static final long WORK_MILLIS = 1_500;

    @Inject
    Counter counter;

    /** {@code @Timeout} alone: Fault Tolerance throws its timeout when the body returns. */
    @POST
    @Path("sync")
    @Timeout(TIMEOUT_MILLIS)
    public Response sync(String body) {
        return work("timed-sync:" + body);
    }

    /** {@code @Asynchronous @Timeout}: the request's stage fails at the timeout while the body runs on. */
    @POST
    @Path("async")
    @Asynchronous
    @Timeout(TIMEOUT_MILLIS)
    public CompletionStage<Response> async(String body) {
        return CompletableFuture.completedFuture(work("timed-async:" + body));
    }

    /** Whether the server has MicroProfile Fault Tolerance: "true" or "false". */
    @GET
    @Path("ft")
    public String faultTolerance() {
        return String.valueOf(Thread.currentThread()
                        .getContextClassLoader()
                        .getResource("org/eclipse/microprofile/faulttolerance/Timeout.class")
                != null);
    }

    private Response work(String name) {
        int run = counter.ran(name);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WORK_MILLIS);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                // A blocking call the timeout cannot stop: the work goes on.
            }
        }
        counter.ran(name + ":done");
        return Response.status(201).entity(name + " " + run).build();
    }
}
