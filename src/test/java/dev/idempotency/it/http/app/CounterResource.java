package dev.idempotency.it.http.app;

import dev.idempotency.internal.core.RecordKey;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** Test controls, not guarded: read counters, switch the store's failure mode. */
@Path("control")
public class CounterResource {

    @Inject
    Counter counter;

    @Inject
    FlakyStore store;

    /**
     * How often a name ran. The name is a query parameter: names contain ':', which GlassFish's
     * Jakarta Authorization refuses in a request path (500, "invalid URLPatternSpec").
     */
    @GET
    @Path("count")
    public String count(@QueryParam("name") String name) {
        return Integer.toString(counter.count(name));
    }

    /** Makes the store fail (true) or work (false). */
    @PUT
    @Path("store-failing")
    @Consumes("text/plain")
    public void failing(String value) {
        store.failing(Boolean.parseBoolean(value.trim()));
    }

    /**
     * The status of the record a key has in this application's namespace ({@code idempotency.application}
     * is {@value #APPLICATION} here) and in the unnamed one, as {@code named/unnamed}, {@code none} for
     * no record: what the HTTP guard wrote, read straight from the store.
     */
    @GET
    @Path("record")
    public String record(
            @QueryParam("operation") String operation,
            @QueryParam("scope") String scope,
            @QueryParam("key") String key) {
        return status(RecordKey.of(APPLICATION, operation, scope, key)) + "/"
                + status(RecordKey.of(operation, scope, key));
    }

    /** The application name the deployment sets. */
    public static final String APPLICATION = "http-it";

    private String status(RecordKey k) {
        return store.read(k.storeKey()).map(r -> r.status().name()).orElse("none");
    }
}
