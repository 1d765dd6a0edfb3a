package dev.idempotency.examples.shop.orders;

import dev.idempotency.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Placing an order: the double-click scenario. The page sends one {@code Idempotency-Key} per form
 * fill; however often the button is pressed, one order is created. Repeats while the first request
 * runs get 409 with {@code Retry-After}; repeats after it get the same 201, the same {@code Location}
 * and the same body, marked {@code Idempotent-Replayed: true}.
 */
@RequestScoped
@Path("orders")
public class OrdersResource {

    @Inject
    OrderService orders;

    /** Stands in for the stock and fraud checks a real shop makes, so that clicks overlap the first. */
    @Inject
    @ConfigProperty(name = "shop.orders.processing-time", defaultValue = "PT0.4S")
    Duration processingTime;

    /**
     * Places an order. The key is required: an order without one is refused with 400.
     *
     * @param request the order
     * @param uri for the Location header
     * @return 201 with the order
     */
    @POST
    @Idempotent(name = "shop.orders.place", required = true)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response place(OrderRequest request, @Context UriInfo uri) {
        validate(request);
        pause(processingTime);
        OrderView created = orders.place(request);
        return Response.created(uri.getAbsolutePathBuilder()
                        .path(String.valueOf(created.id()))
                        .build())
                .entity(created)
                .build();
    }

    /**
     * Lists orders, newest first.
     *
     * @param customer only this customer's, when given
     * @return the orders
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<OrderView> list(@QueryParam("customer") String customer) {
        return orders.list(customer);
    }

    /**
     * One order.
     *
     * @param id the order number
     * @return the order, or 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public OrderView get(@PathParam("id") long id) {
        OrderView order = orders.find(id);
        if (order == null) {
            throw new NotFoundException("no order " + id);
        }
        return order;
    }

    private static void validate(OrderRequest request) {
        // A 400 is a kept outcome: a repeat of the same invalid request gets the same 400.
        if (request == null
                || request.customer() == null
                || request.customer().isBlank()
                || request.customer().length() > 100) {
            throw new BadRequestException("customer must be 1 to 100 characters");
        }
        if (request.product() == null) {
            throw new BadRequestException("product must be one of BEANS, GRINDER, KETTLE");
        }
        if (request.quantity() < 1 || request.quantity() > 99) {
            throw new BadRequestException("quantity must be 1 to 99");
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
