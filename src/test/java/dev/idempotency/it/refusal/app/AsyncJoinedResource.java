package dev.idempotency.it.refusal.app;

import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An asynchronous resource method whose operation is configured for the joined mode: the filter's JTA
 * transaction is bound to the request's thread and cannot follow the response to another one, so the
 * deployment must fail, naming the method.
 */
@Path("async-joined")
public class AsyncJoinedResource {

    /** The operation name the deployment puts in the joined mode. */
    public static final String OPERATION = "refusal.async-joined";

    /** Never runs: the deployment is refused. */
    @POST
    @Idempotent(name = OPERATION, transaction = Participation.JOINED)
    public CompletionStage<String> place(String order) {
        return CompletableFuture.completedFuture("placed " + order);
    }
}
