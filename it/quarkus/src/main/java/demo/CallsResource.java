package demo;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Calls the guarded CDI methods from plain (unguarded) resource methods, and reports the counts. */
@Path("")
@Produces(MediaType.TEXT_PLAIN)
public class CallsResource {

    @Inject
    Payments payments;

    @Inject
    Refunds refunds;

    @Inject
    Fees fees;

    @Inject
    Billing billing;

    @Inject
    Reports reports;

    @Inject
    Executions executions;

    /** Delivers a message to {@link Billing#onRepayment}: "processed", or the handler's failure. */
    @POST
    @Path("messages/{serialNo}")
    public String deliver(@PathParam("serialNo") String serialNo, @QueryParam("fail") boolean fail) {
        try {
            billing.onRepayment(serialNo, fail);
            return "processed";
        } catch (IllegalStateException e) {
            return "failed: " + e.getMessage();
        }
    }

    /** Calls {@link Reports#run}. */
    @POST
    @Path("reports/{ref}")
    public String report(@PathParam("ref") String ref, @QueryParam("holdMillis") long holdMillis)
            throws InterruptedException {
        reports.run(ref, holdMillis);
        return "done";
    }

    /** Calls {@link Payments#charge}. */
    @POST
    @Path("payments/{orderId}")
    public String charge(@PathParam("orderId") String orderId, @QueryParam("cents") long cents) {
        return payments.charge(orderId, cents);
    }

    /** Calls {@link Refunds#refund}. */
    @POST
    @Path("refunds/{orderId}")
    public String refund(@PathParam("orderId") String orderId) {
        return refunds.refund(orderId);
    }

    /** Calls {@link Payments#settle}. */
    @POST
    @Path("settlements/{orderId}")
    public String settle(@PathParam("orderId") String orderId, @QueryParam("holdMillis") long holdMillis)
            throws InterruptedException {
        return payments.settle(orderId, holdMillis);
    }

    /** Calls {@link Fees#charge}. */
    @POST
    @Path("fees/{orderId}")
    public String fee(@PathParam("orderId") String orderId) {
        return fees.charge(orderId);
    }

    /** How many times {@code kind} ran for {@code ref}. */
    @GET
    @Path("executions/{kind}/{ref}")
    public String executions(@PathParam("kind") String kind, @PathParam("ref") String ref) {
        return Integer.toString(executions.of(kind, ref));
    }
}
