package demo;

import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Calls {@link Transfers} inside a transaction of Quarkus's (Narayana's) that commits, or that is marked
 * for rollback after the call returned ({@code rollback=true}), as a failing step after it would.
 */
@Path("transfers")
@Produces(MediaType.TEXT_PLAIN)
public class TransfersResource {

    @Inject
    Transfers transfers;

    @Inject
    TransactionSynchronizationRegistry registry;

    /** Calls {@link Transfers#separate}. */
    @POST
    @Path("separate/{ref}")
    @Transactional
    public String separate(@PathParam("ref") String ref, @QueryParam("rollback") boolean rollback) {
        return end(transfers.separate(ref), rollback);
    }

    /** Calls {@link Transfers#joined}. */
    @POST
    @Path("joined/{ref}")
    @Transactional
    public String joined(@PathParam("ref") String ref, @QueryParam("rollback") boolean rollback) {
        return end(transfers.joined(ref), rollback);
    }

    private String end(String result, boolean rollback) {
        if (rollback) {
            registry.setRollbackOnly();
        }
        return result;
    }
}
