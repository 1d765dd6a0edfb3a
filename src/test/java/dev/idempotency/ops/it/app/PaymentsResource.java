package dev.idempotency.ops.it.app;

import dev.idempotency.Idempotent;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Two guarded operations and their counters. A body {@code hold} makes the call wait until {@code
 * POST payments/let} (bounded), so that a duplicate meets it in progress.
 */
@Path("payments")
public class PaymentsResource {

    /** The payment operation's name. */
    public static final String PAY = "ops-it.pay";
    /** The refund operation's name. */
    public static final String REFUND = "ops-it.refund";

    static final AtomicInteger PAYS = new AtomicInteger();
    static final AtomicInteger REFUNDS = new AtomicInteger();
    static final AtomicReference<CountDownLatch> GATE = new AtomicReference<>(new CountDownLatch(1));

    @POST
    @Idempotent(name = PAY, required = true)
    public Response pay(String body) throws InterruptedException {
        int n = PAYS.incrementAndGet();
        if (body.contains("hold") && !GATE.get().await(60, TimeUnit.SECONDS)) {
            return Response.serverError()
                    .entity("the test never let the held call go")
                    .build();
        }
        return Response.status(201).entity("paid " + body + " #" + n).build();
    }

    @POST
    @Path("refund")
    @Idempotent(name = REFUND, required = true)
    public Response refund(String body) {
        int n = REFUNDS.incrementAndGet();
        return Response.status(201).entity("refunded " + body + " #" + n).build();
    }

    /** How often pay and refund ran. */
    @GET
    @Path("runs")
    public String runs() {
        return PAYS.get() + " " + REFUNDS.get();
    }

    /** Lets a held pay finish, and arms the gate for the next one. */
    @POST
    @Path("let")
    public String let() {
        GATE.getAndSet(new CountDownLatch(1)).countDown();
        return "let";
    }
}
