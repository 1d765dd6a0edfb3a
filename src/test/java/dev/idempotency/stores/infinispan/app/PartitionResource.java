package dev.idempotency.stores.infinispan.app;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.stores.infinispan.InfinispanIdempotencyStore;
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
import org.infinispan.topology.CacheTopology;

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

    /** How many members this node's Infinispan cluster has, and the cache's availability. */
    @GET
    @Path("members")
    public String members() {
        InfinispanIdempotencyStore ispn = (InfinispanIdempotencyStore) store;
        return ispn.cache().getCacheManager().getMembers().size() + " "
                + ispn.cache().getAdvancedCache().getAvailability();
    }

    /**
     * This node's cache topology: {@code <topology id> <phase> <members of the current consistent
     * hash> <pending consistent hash: none or its member count>}. {@code NO_REBALANCE}, the same id on
     * every node and no pending hash: no rebalance or conflict resolution is under way.
     */
    @GET
    @Path("topology")
    public String topology() {
        InfinispanIdempotencyStore ispn = (InfinispanIdempotencyStore) store;
        CacheTopology t =
                ispn.cache().getAdvancedCache().getDistributionManager().getCacheTopology();
        return t.getTopologyId() + " " + t.getPhase() + " "
                + t.getCurrentCH().getMembers().size() + " "
                + (t.getPendingCH() == null
                        ? "none"
                        : String.valueOf(t.getPendingCH().getMembers().size()));
    }
}
