package dev.idempotency.it.matrix.app;

import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One guarded resource method per transaction type and entry style, each writing one effect row and
 * ending as {@code X-Outcome} says, after {@code X-Pause} milliseconds. The operations use the store's
 * default transaction mode ({@code separate} for the JPA store); {@link JoinedChargesResource} has the
 * joined ones.
 */
@Path("charges")
@RequestScoped
@Consumes("text/plain")
public class ChargesResource {

    @Inject
    MatrixEffects effects;

    @Inject
    TransactionalWork work;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /** No transaction: the row commits at once. */
    @POST
    @Path("none")
    @Idempotent(name = "matrix.none")
    public Response none(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** A transaction of the resource's own (no caller's transaction over HTTP). */
    @POST
    @Path("required")
    @Idempotent(name = "matrix.required")
    @Transactional(dontRollbackOn = Declined.class)
    public Response required(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** A new transaction. */
    @POST
    @Path("requires-new")
    @Idempotent(name = "matrix.requires-new")
    @Transactional(value = Transactional.TxType.REQUIRES_NEW, dontRollbackOn = Declined.class)
    public Response requiresNew(
            String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Without a transaction, explicitly: the row commits at once. */
    @POST
    @Path("not-supported")
    @Idempotent(name = "matrix.not-supported")
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Response notSupported(
            String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Duplicates wait for the first call's response instead of a 409. */
    @POST
    @Path("wait")
    @Idempotent(name = "matrix.wait", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    @Transactional(dontRollbackOn = Declined.class)
    public Response waiting(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** A CompletionStage completed on a managed thread, the work in a transaction there. */
    @POST
    @Path("stage")
    @Idempotent(name = "matrix.stage")
    public CompletionStage<Response> stage(
            String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        Outcome end = Outcome.of(outcome);
        CompletableFuture<Response> result = new CompletableFuture<>();
        executor.execute(() -> {
            Outcome.pause(pause);
            try {
                result.complete(work.charge(id, end));
            } catch (RuntimeException e) {
                // The exception itself, not a CompletionException around it, so its mapper applies.
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** A suspended AsyncResponse resumed on a managed thread, the work in a transaction there. */
    @POST
    @Path("suspended")
    @Idempotent(name = "matrix.suspended")
    public void suspended(
            String id,
            @HeaderParam("X-Outcome") String outcome,
            @HeaderParam("X-Pause") long pause,
            @Suspended AsyncResponse response) {
        Outcome end = Outcome.of(outcome);
        executor.execute(() -> {
            Outcome.pause(pause);
            try {
                response.resume(work.charge(id, end));
            } catch (RuntimeException e) {
                response.resume(e);
            }
        });
    }

    /** How long {@link #suspendedTimesOut}'s work runs: three times the response's timeout. */
    public static final long TIMED_OUT_WORK_MILLIS = 3000;

    /**
     * A suspended AsyncResponse that times out after 1 s (JAX-RS answers 503) while its work goes on:
     * the effect row is written {@link #TIMED_OUT_WORK_MILLIS} after the call, and the late resume is
     * seen only where this class is a CDI bean. Its lease (2 s) is shorter than the work.
     */
    @POST
    @Path("suspended-times-out")
    @Idempotent(name = "matrix.suspended-times-out", lease = "PT2S")
    public void suspendedTimesOut(String id, @Suspended AsyncResponse response) {
        response.setTimeout(1, java.util.concurrent.TimeUnit.SECONDS);
        executor.execute(() -> {
            Outcome.pause(TIMED_OUT_WORK_MILLIS);
            response.resume(work.charge(id, Outcome.OK));
        });
    }
    /**
     * MicroProfile Fault Tolerance's {@code @Timeout} (inert where the server has none): the request
     * fails at 300 ms while the body runs on, ignoring the interrupt as a blocking call does, and writes
     * its effect row {@link #TIMED_OUT_WORK_MILLIS} after the call. Its lease (2 s) is shorter than the work.
     */
    @POST
    @Path("fault-tolerance-timeout")
    @Idempotent(name = "matrix.fault-tolerance-timeout", lease = "PT2S")
    @org.eclipse.microprofile.faulttolerance.Timeout(300)
    public Response faultToleranceTimeout(String id) {
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(TIMED_OUT_WORK_MILLIS);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            try {
                java.util.concurrent.TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                // A blocking call the timeout cannot stop: the work goes on.
            }
        }
        return work.charge(id, Outcome.OK);
    }
}
