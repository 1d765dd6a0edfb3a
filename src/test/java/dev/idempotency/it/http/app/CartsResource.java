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

    /** Locates one cart's notes: a second sub-resource whose method template is {@code /} too. */
    @Path("{cart}/notes")
    public Notes notes(@PathParam("cart") String cart) {
        return new Notes(counter, cart);
    }

    /** Another sub-resource, whose guarded method has the same template as {@link Items#add}. */
    public static class Notes {
        private final Counter counter;
        private final String cart;

        Notes(Counter counter, String cart) {
            this.counter = counter;
            this.cart = cart;
        }

        /** Adds a note; the response names the run. */
        @POST
        @Consumes("text/plain")
        @Produces("text/plain")
        @Idempotent
        public String add(String note) {
            return cart + ":" + note + "-" + counter.ran("note:" + cart + ":" + note);
        }
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
