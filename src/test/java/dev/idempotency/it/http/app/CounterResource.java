package dev.idempotency.it.http.app;

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
}
