package dev.idempotency.it.matrix.app;

import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * The synchronous methods of {@link ChargesResource} under operation names that the JPA deployment
 * puts in the joined mode ({@link #JOINED_CONFIG}): the filter begins the JTA transaction, the
 * resource's work runs in it unless its transaction type suspends it, and the record commits with it.
 */
@Path("joined")
@RequestScoped
@Consumes("text/plain")
public class JoinedChargesResource {

    /** The configuration lines that put these operations in the joined mode. */
    public static final String JOINED_CONFIG = String.join(
            "\n", joined("none"), joined("required"), joined("requiresNew"), joined("notSupported"), joined("waiting"));

    /** The per-method key that puts one of these methods in the joined mode. */
    private static String joined(String method) {
        return JoinedChargesResource.class.getName() + "/" + method + "/Idempotent/transaction=joined";
    }

    @Inject
    MatrixEffects effects;

    /** Joins the filter's transaction (the data source enlists in whatever is active). */
    @POST
    @Path("none")
    @Idempotent(name = "matrix.joined.none")
    public Response none(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Joins the filter's transaction. */
    @POST
    @Path("required")
    @Idempotent(name = "matrix.joined.required")
    @Transactional(dontRollbackOn = Declined.class)
    public Response required(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Suspends the filter's transaction and commits its work in its own. */
    @POST
    @Path("requires-new")
    @Idempotent(name = "matrix.joined.requires-new")
    @Transactional(value = Transactional.TxType.REQUIRES_NEW, dontRollbackOn = Declined.class)
    public Response requiresNew(
            String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Suspends the filter's transaction: the row commits at once. */
    @POST
    @Path("not-supported")
    @Idempotent(name = "matrix.joined.not-supported")
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Response notSupported(
            String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }

    /** Duplicates wait for the first call's response instead of a 409. */
    @POST
    @Path("wait")
    @Idempotent(name = "matrix.joined.wait", onInProgress = InProgressPolicy.WAIT, lease = "PT30S")
    @Transactional(dontRollbackOn = Declined.class)
    public Response waiting(String id, @HeaderParam("X-Outcome") String outcome, @HeaderParam("X-Pause") long pause) {
        return effects.charge(id, outcome, pause);
    }
}
