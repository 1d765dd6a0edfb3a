package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.object;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 000, "the payment provider calls back again": the provider's trade number is the key of the
 * guarded CDI bean. Whatever the number and timing of the callbacks, the order is paid once, one
 * payment is booked, and every callback gets the same answer.
 */
@ExtendWith(ShopServer.class)
class PaymentCallbackIT {

    private final ShopClient shop = new ShopClient();

    private Map<String, String> callback(String tradeNo, long orderId, String amount) {
        return Map.of(
                "trade_no",
                tradeNo,
                "out_trade_no",
                String.valueOf(orderId),
                "total_amount",
                amount,
                "trade_status",
                "TRADE_SUCCESS");
    }

    private JsonArray payments(long orderId) throws Exception {
        return ShopClient.array(shop.get("payments?orderId=" + orderId).body());
    }

    private JsonObject order(long id) throws Exception {
        return object(shop.get("orders/" + id).body());
    }

    @Test
    void aCallbackRetriedConcurrentlyAndLaterPaysOnceAndAnswersTheSame() throws Exception {
        long orderId =
                shop.placeOrder(unique("pay"), "KETTLE", 2).getJsonNumber("id").longValue();
        String tradeNo = unique("T");
        Map<String, String> form = callback(tradeNo, orderId, "90.00");
        List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(() -> shop.postForm("payments/callback", form));
        }
        List<HttpResponse<String>> answers = new ArrayList<>(Together.run(calls));
        for (int i = 0; i < 3; i++) {
            answers.add(shop.postForm("payments/callback", form)); // the provider's later retries
        }

        for (HttpResponse<String> r : answers) {
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(answers.get(0).body(), r.body(), "every callback gets the first answer, handledAt included");
        }
        JsonObject ack = object(answers.get(0).body());
        assertEquals("success", ack.getString("result"));
        assertEquals(tradeNo, ack.getString("tradeNo"));
        assertEquals(1, payments(orderId).size(), "one payment booked for eleven callbacks");
        JsonObject paid = order(orderId);
        assertEquals("PAID", paid.getString("status"));
        assertEquals(tradeNo, paid.getString("tradeNo"));
    }

    @Test
    void aRejectedCallbackIsKeptAndAnotherTradeCanStillPay() throws Exception {
        long orderId =
                shop.placeOrder(unique("wrong"), "BEANS", 1).getJsonNumber("id").longValue();
        String badTrade = unique("T");
        HttpResponse<String> wrong = shop.postForm("payments/callback", callback(badTrade, orderId, "1.00"));
        HttpResponse<String> wrongAgain = shop.postForm("payments/callback", callback(badTrade, orderId, "1.00"));
        assertEquals(422, wrong.statusCode());
        assertEquals(wrong.body(), wrongAgain.body(), "the kept refusal is replayed as it was");
        assertTrue(wrong.body().contains("does not match the order total"), wrong.body());
        assertEquals("NEW", order(orderId).getString("status"));
        assertEquals(0, payments(orderId).size());

        String goodTrade = unique("T");
        assertEquals(
                200,
                shop.postForm("payments/callback", callback(goodTrade, orderId, "18.50"))
                        .statusCode());
        assertEquals("PAID", order(orderId).getString("status"));

        // A second, different payment of the same order: another key, so only the order's state
        // machine can refuse it, and does.
        HttpResponse<String> second = shop.postForm("payments/callback", callback(unique("T"), orderId, "18.50"));
        assertEquals(422, second.statusCode());
        assertTrue(second.body().contains("already paid"), second.body());
        assertEquals(1, payments(orderId).size());
        assertEquals(goodTrade, order(orderId).getString("tradeNo"));
    }

    @Test
    void aTradeNumberReusedWithOtherContentIsRefusedWith422() throws Exception {
        long first =
                shop.placeOrder(unique("mix"), "BEANS", 1).getJsonNumber("id").longValue();
        long other =
                shop.placeOrder(unique("mix"), "BEANS", 1).getJsonNumber("id").longValue();
        String tradeNo = unique("T");
        assertEquals(
                200,
                shop.postForm("payments/callback", callback(tradeNo, first, "18.50"))
                        .statusCode());
        HttpResponse<String> reused = shop.postForm("payments/callback", callback(tradeNo, other, "18.50"));
        assertEquals(422, reused.statusCode());
        assertTrue(reused.body().contains("IdempotencyKeyMismatchException"), reused.body());
        assertEquals("NEW", order(other).getString("status"), "the other order was not paid by a reused number");
        assertEquals(0, payments(other).size());
    }
}
