package dev.idempotency.examples.shop.payments;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.util.List;

/**
 * The payment provider's asynchronous notification, in the form-encoded shape such providers post
 * ({@code trade_no}, {@code out_trade_no}, {@code total_amount}, {@code trade_status}). Providers send
 * no {@code Idempotency-Key} header: their trade number is the key, taken by {@link PaymentCallbacks}.
 */
@RequestScoped
@Path("payments")
public class PaymentsResource {

    @Inject
    PaymentCallbacks callbacks;

    /**
     * Receives a callback.
     *
     * @param tradeNo the provider's trade number
     * @param orderId the shop's order number
     * @param amount the amount paid
     * @param tradeStatus the provider's status
     * @return the acknowledgement, the same for every retry
     * @throws PaymentRejected mapped to 422
     */
    @POST
    @Path("callback")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.APPLICATION_JSON)
    public PaymentAck callback(
            @FormParam("trade_no") String tradeNo,
            @FormParam("out_trade_no") String orderId,
            @FormParam("total_amount") String amount,
            @FormParam("trade_status") String tradeStatus)
            throws PaymentRejected {
        if (tradeNo == null || tradeNo.isBlank() || tradeNo.length() > 64) {
            throw new BadRequestException("trade_no must be 1 to 64 characters");
        }
        return callbacks.confirm(tradeNo, new PaymentNotice(tradeNo, number(orderId), money(amount), tradeStatus));
    }

    /**
     * The payment rows of an order.
     *
     * @param orderId the order
     * @return its booked payments
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<PaymentView> ofOrder(@QueryParam("orderId") long orderId) {
        return callbacks.ofOrder(orderId);
    }

    /**
     * The settlement job's latest runs, newest first.
     *
     * @param all also the runs that found nothing to pay out
     * @return at most 100 runs
     */
    @GET
    @Path("payouts")
    @Produces(MediaType.APPLICATION_JSON)
    public List<PayoutBatchView> payouts(@QueryParam("all") boolean all) {
        return callbacks.payouts(all);
    }

    private static long number(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException | NullPointerException e) {
            throw new BadRequestException("out_trade_no must be an order number");
        }
    }

    private static BigDecimal money(String s) {
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException | NullPointerException e) {
            throw new BadRequestException("total_amount must be a decimal amount");
        }
    }
}
