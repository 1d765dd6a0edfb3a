package dev.idempotency.examples.shop.loans;

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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.math.BigDecimal;
import java.util.List;

/** Loans, their ledger, and the demo's redelivery of repayment messages. */
@RequestScoped
@Path("loans")
public class LoansResource {

    @Inject
    LoanService loans;

    @Inject
    MessageBroker broker;

    /**
     * Opens a loan. An {@code Idempotency-Key} is optional here: with one, a retried request opens
     * one loan.
     *
     * @param request the loan
     * @param uri for the Location header
     * @return 201 with the loan
     */
    @POST
    @Idempotent(name = "shop.loans.open")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response open(LoanRequest request, @Context UriInfo uri) {
        if (request == null
                || request.borrower() == null
                || request.borrower().isBlank()
                || request.borrower().length() > 100) {
            throw new BadRequestException("borrower must be 1 to 100 characters");
        }
        if (!nonNegative(request.principal()) || !nonNegative(request.lateFee())) {
            throw new BadRequestException("principal and lateFee must be amounts of at least 0");
        }
        LoanView loan = loans.open(request);
        return Response.created(uri.getAbsolutePathBuilder()
                        .path(String.valueOf(loan.id()))
                        .build())
                .entity(loan)
                .build();
    }

    /**
     * Every loan.
     *
     * @return the loans
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<LoanView> list() {
        return loans.list();
    }

    /**
     * One loan.
     *
     * @param id the loan number
     * @return the loan or 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public LoanView get(@PathParam("id") long id) {
        LoanView loan = loans.find(id);
        if (loan == null) {
            throw new NotFoundException("no loan " + id);
        }
        return loan;
    }

    /**
     * The ledger of a loan: one row per settlement that ran.
     *
     * @param id the loan number
     * @return its rows
     */
    @GET
    @Path("{id}/repayments")
    @Produces(MediaType.APPLICATION_JSON)
    public List<RepaymentEntryView> entries(@PathParam("id") long id) {
        return loans.entries(id);
    }

    /**
     * Delivers a repayment message for this loan several times at once, as a broker that lost the
     * acknowledgements would.
     *
     * @param id the loan number
     * @param times how many deliveries, 1 to 50
     * @param message the message; its {@code loanId} must be this loan
     * @return the report: one settlement, the same outcome for every delivery
     * @throws InterruptedException when the server interrupts the request
     */
    @POST
    @Path("{id}/repayment-deliveries/{times}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public DeliveryReport deliver(@PathParam("id") long id, @PathParam("times") int times, RepaymentMessage message)
            throws InterruptedException {
        if (times < 1 || times > MessageBroker.MAX_DELIVERIES) {
            throw new BadRequestException("times must be 1 to " + MessageBroker.MAX_DELIVERIES);
        }
        if (message == null
                || blank(message.serialNo(), 64)
                || blank(message.source(), 32)
                || message.loanId() != id
                || !positive(message.amount())) {
            throw new BadRequestException("the message needs serialNo (1-64 chars), source (1-32 chars), loanId = " + id
                    + " and a positive amount");
        }
        return broker.deliver(message, times);
    }

    private static boolean blank(String s, int max) {
        return s == null || s.isBlank() || s.length() > max;
    }

    private static boolean nonNegative(BigDecimal d) {
        return d != null && d.signum() >= 0;
    }

    private static boolean positive(BigDecimal d) {
        return d != null && d.signum() > 0;
    }
}
