package dev.idempotency.internal.stores.infinispan.app;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.stores.infinispan.InfinispanRaftStore;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * HTTP front of {@link PartitionExecutions} (no Idempotency-Key filter): 200 with the outcome, 409
 * while another call holds the key, 503 when the store cannot decide (a minority partition).
 */
@Path("/")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class PartitionResource {

    @Inject
    PartitionExecutions executions;

    @Inject
    @Named("infinispan")
    IdempotencyStore store;

    /** Runs (or replays) {@link PartitionExecutions#exec}. */
    @POST
    @Path("exec/{key}")
    public Response exec(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(executions.exec(key)).build();
        } catch (IdempotencyInProgressException e) {
            return Response.status(409).entity("in progress").build();
        } catch (IdempotencyStoreUnavailableException e) {
            return Response.status(503)
                    .entity("store unavailable: " + e.getMessage())
                    .build();
        }
    }

    /**
     * How many members this node sees, and whether its RAFT group has a leader it can reach
     * ({@code AVAILABLE}, else {@code DEGRADED_MODE}): a cut-off minority says "1 DEGRADED_MODE" once
     * its failure detection noticed.
     */
    @GET
    @Path("members")
    public String members() {
        InfinispanRaftStore cluster = (InfinispanRaftStore) store;
        return cluster.visibleMembers() + " " + (cluster.hasLeader() ? "AVAILABLE" : "DEGRADED_MODE");
    }

    /** The RAFT id of the leader this node follows, or {@code none}. */
    @GET
    @Path("leader")
    public String leader() {
        String leader = ((InfinispanRaftStore) store).leader();
        return leader == null ? "none" : leader;
    }
}
