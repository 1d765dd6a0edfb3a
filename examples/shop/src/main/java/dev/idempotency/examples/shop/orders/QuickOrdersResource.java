package dev.idempotency.examples.shop.orders;

import dev.idempotency.tokens.RequiresOneTimeToken;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * "Buy again", protected by a one-time token instead of an Idempotency-Key (seeds 000 and 003): the
 * page fetches a token from {@code POST /api/idempotency/tokens} when it shows the button and sends it
 * in {@code Idempotency-Token}. The token is consumed atomically before this method runs: the first
 * submission places the order, every other submission with the same token gets 409 {@code
 * token-used}. Unlike a key, a token is issued by the server, so a client cannot pick one.
 */
@RequestScoped
@Path("quick-orders")
public class QuickOrdersResource {

    @Inject
    OrderService orders;

    /**
     * Places an order once per token.
     *
     * @param request the order
     * @param uri for the Location header
     * @return 201 with the order
     */
    @POST
    @RequiresOneTimeToken
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response place(OrderRequest request, @Context UriInfo uri) {
        if (request == null
                || request.customer() == null
                || request.customer().isBlank()
                || request.customer().length() > 100
                || request.product() == null
                || request.quantity() < 1
                || request.quantity() > 99) {
            throw new BadRequestException("customer (1-100 characters), product and quantity (1-99) are required");
        }
        OrderView created = orders.place(request);
        return Response.created(uri.getBaseUriBuilder()
                        .path("orders")
                        .path(String.valueOf(created.id()))
                        .build())
                .entity(created)
                .build();
    }
}
