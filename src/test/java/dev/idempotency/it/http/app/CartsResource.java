package dev.idempotency.it.http.app;

import dev.idempotency.Idempotent;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;

/** A sub-resource locator: its guarded methods are on the class it returns, which has no {@code @Path}. */
@Path("carts")
public class CartsResource {

    @Inject
    Counter counter;

    /** Locates one cart's items. */
    @Path("{cart}/items")
    public Items items(@PathParam("cart") String cart) {
        return new Items(counter, cart);
    }

    /** A sub-resource, created by the locator (not by CDI). */
    public static class Items {
        private final Counter counter;
        private final String cart;

        Items(Counter counter, String cart) {
            this.counter = counter;
            this.cart = cart;
        }

        /** Adds an item; the response names the run. */
        @POST
        @Consumes("text/plain")
        @Produces("text/plain")
        @Idempotent(required = true)
        public String add(String item) {
            return cart + ":" + item + "-" + counter.ran("item:" + cart + ":" + item);
        }
    }
}
