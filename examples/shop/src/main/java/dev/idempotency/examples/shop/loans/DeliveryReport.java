package dev.idempotency.examples.shop.loans;

import java.util.List;

/**
 * What happened when one message was delivered several times at once.
 *
 * @param deliveries how many times the message was delivered
 * @param outcomes what each delivery got back: the settlement as JSON, or the exception
 * @param distinctOutcomes how many different outcomes there were (1 when every delivery got the same)
 * @param settlements ledger rows written for this serial number and source (1 when it ran once)
 * @param loan the loan afterwards
 */
public record DeliveryReport(
        int deliveries, List<String> outcomes, long distinctOutcomes, long settlements, LoanView loan) {}
