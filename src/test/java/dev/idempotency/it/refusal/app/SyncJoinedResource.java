package dev.idempotency.it.refusal.app;

import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** The control: the same operation, synchronous, deploys. */
@Path("sync-joined")
public class SyncJoinedResource {

    /** Places the order. */
    @POST
    @Idempotent(name = AsyncJoinedResource.OPERATION, transaction = Participation.JOINED)
    public String place(String order) {
        return "placed " + order;
    }
}
