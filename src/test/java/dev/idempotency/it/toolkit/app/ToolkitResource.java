package dev.idempotency.it.toolkit.app;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.ids.SnowflakeIds;
import dev.idempotency.messaging.MessageDeduplicator;
import dev.idempotency.messaging.MessageStatus;
import dev.idempotency.tokens.RequiresOneTimeToken;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.util.concurrent.atomic.AtomicInteger;

/** The test's view into the deployment. */
@Path("t")
@RequestScoped
public class ToolkitResource {

    static final AtomicInteger ORDERS = new AtomicInteger();

    @Inject
    JobRuns jobs;

    @Inject
    Billing billing;

    @Inject
    MessageDeduplicator messages;

    @Inject
    SnowflakeIds ids;

    /** Places an order; requires a one-time token. */
    @POST
    @Path("orders")
    @RequiresOneTimeToken
    public String order() {
        return "order " + ORDERS.incrementAndGet();
    }

    /** How many orders were placed. */
    @GET
    @Path("orders/count")
    public int orders() {
        return ORDERS.get();
    }

    /** The job runs. */
    @GET
    @Path("jobs")
    public String jobs() {
        return jobs.report();
    }

    /** Delivers a message: "processed", "in-progress" or "failed: <message>". */
    @POST
    @Path("messages/{id}")
    public String deliver(@PathParam("id") String id, @QueryParam("failures") int failures) {
        try {
            billing.onPayment(id, failures);
            return "acknowledged";
        } catch (IdempotencyInProgressException e) {
            return "in-progress";
        } catch (IllegalStateException e) {
            return "failed: " + e.getMessage();
        }
    }

    /** "<state> <attempts> <runs> [reports]". */
    @GET
    @Path("messages/{id}")
    public String status(@PathParam("id") String id) {
        MessageStatus s = messages.status("billing", id);
        return s.state() + " " + s.attempts() + " " + billing.runs(id) + " [" + billing.reports(id) + "]";
    }

    /** A Snowflake id from the injected generator, with its worker id. */
    @GET
    @Path("id")
    public String id() {
        long id = ids.nextId();
        return id + " " + SnowflakeIds.workerOf(id);
    }
}
