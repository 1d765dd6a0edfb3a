package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.TimeUnit;

/**
 * Suspended resource methods on a class that is a CDI bean (request scoped), which time out after 1 s
 * (JAX-RS answers 503) while their work goes on; the work ends 3 s after it started ({@link
 * AsyncOrdersResource#later}) and resumes too late: with a text response, a JSON entity, or an exception.
 */
@RequestScoped
@Path("async-bean")
@Idempotent(required = true)
@Consumes("text/plain")
public class AsyncBeanOrdersResource {

    /** A late JSON entity. */
    public record Receipt(String order, int run) {}

    @Inject
    Counter counter;

    private static void later(Runnable task) {
        AsyncOrdersResource.later(task);
    }

    private int start(String name, AsyncResponse response) {
        response.setTimeout(1, TimeUnit.SECONDS);
        return counter.ran(name);
    }

    /** Resumes late with a 201 and a text body. */
    @POST
    @Path("text")
    @Produces("text/plain")
    public void text(String body, @Suspended AsyncResponse response) {
        int run = start("async-bean-text:" + body, response);
        Counter c = counter;
        later(() -> {
            c.ran("async-bean-text-done:" + body);
            response.resume(Response.status(201)
                    .header("Order-Id", body)
                    .entity("late " + body + " " + run)
                    .build());
        });
    }

    /** Resumes late with an entity, written as JSON. */
    @POST
    @Path("json")
    @Produces("application/json")
    public void json(String body, @Suspended AsyncResponse response) {
        int run = start("async-bean-json:" + body, response);
        Counter c = counter;
        later(() -> {
            c.ran("async-bean-json-done:" + body);
            response.resume(new Receipt(body, run));
        });
    }

    /** Resumes late with an exception: the work failed. */
    @POST
    @Path("fails")
    @Produces("text/plain")
    public void fails(String body, @Suspended AsyncResponse response) {
        start("async-bean-fails:" + body, response);
        Counter c = counter;
        later(() -> {
            c.ran("async-bean-fails-done:" + body);
            response.resume(new IllegalStateException("the work failed"));
        });
    }
}
