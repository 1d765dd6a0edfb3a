package dev.idempotency.internal.stores.infinispan.app;

import dev.idempotency.IdempotencyConfigurationException;
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

/** HTTP front of {@link Executions}; it does not use the Idempotency-Key filter. */
@Path("/")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class ExecResource {

    @Inject
    Executions executions;

    @Inject
    @Named("infinispan")
    IdempotencyStore store;

    /** Runs (or replays) {@link Executions#exec}. */
    @POST
    @Path("exec/{key}")
    public Response exec(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(executions.exec(key)).build();
        } catch (IdempotencyInProgressException e) {
            return Response.status(409).entity("in progress").build();
        }
    }

    /** Runs (or replays) {@link Executions#slow}; 409 while another call holds the key. */
    @POST
    @Path("slow/{key}")
    public Response slow(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(executions.slow(key)).build();
        } catch (IdempotencyInProgressException e) {
            return Response.status(409).entity("in progress").build();
        }
    }

    /** Runs (or replays) {@link Executions#chaos}; 409 while another call holds the key, 503 when the store is. */
    @POST
    @Path("chaos/{key}")
    public Response chaos(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(executions.chaos(key)).build();
        } catch (IdempotencyInProgressException e) {
            return Response.status(409).entity("in progress").build();
        } catch (IdempotencyStoreUnavailableException e) {
            return Response.status(503).entity("unavailable").build();
        }
    }

    @Inject
    JoinedExecutions joined;

    /** Calls {@link Executions#joinedWithoutTransaction}; 500 with the refusal's message. */
    @POST
    @Path("joined-no-tx/{key}")
    public Response joinedWithoutTransaction(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(executions.joinedWithoutTransaction(key)).build();
        } catch (IdempotencyConfigurationException e) {
            return Response.status(500).entity(e.getMessage()).build();
        }
    }

    /**
     * Runs (or replays) {@link JoinedExecutions#chaosJoined}; 409 while another call holds the key (or
     * while its node's death left it in doubt), 503 when the store is unavailable.
     */
    @POST
    @Path("chaos-joined/{key}")
    public Response chaosJoined(@PathParam("key") String key) throws Exception {
        try {
            return Response.ok(joined.chaosJoined(key)).build();
        } catch (IdempotencyInProgressException e) {
            return Response.status(409).entity("in progress").build();
        } catch (IdempotencyStoreUnavailableException e) {
            return Response.status(503).entity("unavailable").build();
        }
    }

    /**
     * How many members this node sees, and whether its RAFT group has a leader it can reach
     * ({@code AVAILABLE}, else {@code DEGRADED_MODE}): "3 AVAILABLE" once the cluster serves claims.
     */
    @GET
    @Path("members")
    public String members() {
        InfinispanRaftStore cluster = (InfinispanRaftStore) store;
        return cluster.visibleMembers() + " " + (cluster.hasLeader() ? "AVAILABLE" : "DEGRADED_MODE");
    }
}
