package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.object;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 001: the payment system's repayment messages reach the order system more than once. The
 * consumer is keyed by serial number + source (record components with {@code @IdempotencyKey}); a
 * message delivered many times at once settles once, and every delivery gets the same result.
 */
@ExtendWith(ShopServer.class)
class RepaymentIT {

    private final ShopClient shop = new ShopClient();

    private long openLoan(String principal, String lateFee) throws Exception {
        String body = Json.createObjectBuilder()
                .add("borrower", unique("borrower"))
                .add("principal", new BigDecimal(principal))
                .add("lateFee", new BigDecimal(lateFee))
                .build()
                .toString();
        HttpResponse<String> r = shop.postJson("loans", body, null);
        assertEquals(201, r.statusCode(), r.body());
        return object(r.body()).getJsonNumber("id").longValue();
    }

    private JsonObject deliver(long loanId, String serialNo, String source, String amount, int times) throws Exception {
        String message = Json.createObjectBuilder()
                .add("serialNo", serialNo)
                .add("source", source)
                .add("loanId", loanId)
                .add("amount", new BigDecimal(amount))
                .build()
                .toString();
        HttpResponse<String> r = shop.postJson("loans/" + loanId + "/repayment-deliveries/" + times, message, null);
        assertEquals(200, r.statusCode(), r.body());
        return object(r.body());
    }

    private static void assertMoney(String expected, JsonObject o, String field) {
        BigDecimal actual = o.getJsonNumber(field).bigDecimalValue();
        assertEquals(
                0, new BigDecimal(expected).compareTo(actual), field + ": expected " + expected + ", got " + actual);
    }

    @Test
    void aMessageDeliveredThirtyTimesAtOnceSettlesOnce() throws Exception {
        long loan = openLoan("1000.00", "50.00");
        String serial = unique("SN");

        JsonObject report = deliver(loan, serial, "ALIPAY_OFFLINE", "300.00", 30);

        assertEquals(30, report.getInt("deliveries"));
        assertEquals(1, report.getJsonNumber("settlements").longValue(), "one ledger row for 30 deliveries");
        assertEquals(1, report.getJsonNumber("distinctOutcomes").longValue(), report.toString());
        JsonObject result = object(report.getJsonArray("outcomes").getString(0));
        assertMoney("300", result, "toPrincipal");
        assertMoney("700", report.getJsonObject("loan"), "principalDue");
        assertMoney("50", report.getJsonObject("loan"), "lateFeeDue");
        assertEquals(
                1,
                ShopClient.array(shop.get("loans/" + loan + "/repayments").body())
                        .size());

        // The broker redelivers the same message days later: the same result, nothing paid again.
        JsonObject later = deliver(loan, serial, "ALIPAY_OFFLINE", "300.00", 1);
        assertEquals(
                report.getJsonArray("outcomes").getString(0),
                later.getJsonArray("outcomes").getString(0));
        assertMoney("700", later.getJsonObject("loan"), "principalDue");
    }

    @Test
    void theSourceIsPartOfTheKeyAndPrincipalIsPaidBeforeTheLateFee() throws Exception {
        long loan = openLoan("1000.00", "50.00");
        String serial = unique("SN");

        deliver(loan, serial, "ALIPAY_OFFLINE", "300.00", 10);
        // The same serial number from another source is another repayment.
        JsonObject bank = deliver(loan, serial, "BANK_TRANSFER", "720.00", 10);

        assertEquals(1, bank.getJsonNumber("settlements").longValue());
        JsonObject result = object(bank.getJsonArray("outcomes").getString(0));
        assertMoney("700", result, "toPrincipal");
        assertMoney("20", result, "toLateFee");
        assertMoney("0", bank.getJsonObject("loan"), "principalDue");
        assertMoney("30", bank.getJsonObject("loan"), "lateFeeDue");
        assertFalse(bank.getJsonObject("loan").getBoolean("closed"));

        JsonObject last = deliver(loan, unique("SN"), "BANK_TRANSFER", "30.00", 5);
        assertTrue(last.getJsonObject("loan").getBoolean("closed"), last.toString());
        assertEquals(
                3,
                ShopClient.array(shop.get("loans/" + loan + "/repayments").body())
                        .size());
    }

    @Test
    void differentMessagesForOneLoanDeliveredAtOnceAreEachSettledOnce() throws Exception {
        long loan = openLoan("1000.00", "0.00");
        var deliveries = new java.util.ArrayList<java.util.concurrent.Callable<JsonObject>>();
        for (int m = 0; m < 5; m++) {
            String serial = unique("SN");
            deliveries.add(() -> deliver(loan, serial, "ALIPAY_OFFLINE", "100.00", 6));
        }
        for (JsonObject report : Together.run(deliveries)) {
            assertEquals(1, report.getJsonNumber("settlements").longValue(), report.toString());
            assertEquals(1, report.getJsonNumber("distinctOutcomes").longValue(), report.toString());
        }
        assertEquals(
                5,
                ShopClient.array(shop.get("loans/" + loan + "/repayments").body())
                        .size());
        assertMoney("500", object(shop.get("loans/" + loan).body()), "principalDue");
    }

    @Test
    void aMessageForAnUnknownLoanIsRefusedTheSameWayOnEveryDelivery() throws Exception {
        long missing = 9_000_000L + (long) (Math.random() * 1_000_000);
        JsonObject report = deliver(missing, unique("SN"), "BANK_TRANSFER", "10.00", 5);
        assertEquals(1, report.getJsonNumber("distinctOutcomes").longValue(), report.toString());
        assertTrue(report.getJsonArray("outcomes").getString(0).startsWith("UnknownLoan"), report.toString());
        assertEquals(0, report.getJsonNumber("settlements").longValue());
    }
}
