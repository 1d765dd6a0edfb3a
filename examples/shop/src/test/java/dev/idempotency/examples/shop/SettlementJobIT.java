package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.array;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 002, the scheduled job that one node runs: the settlement timer fires every second (the tests
 * start the server with {@code -Dshop.settlement.interval=PT1S}), and its {@code @ClusterLock(atLeastFor
 * = "PT2S")} keeps each window locked for two seconds, so runs start at least two seconds apart. Every
 * booked payment is paid out in exactly one batch.
 */
@ExtendWith(ShopServer.class)
class SettlementJobIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final ShopClient shop = new ShopClient();

    private long paidOrder() throws Exception {
        JsonObject order = shop.placeOrder(unique("payout"), "GRINDER", 1);
        long id = order.getJsonNumber("id").longValue();
        var r = shop.postForm(
                "payments/callback",
                Map.of(
                        "trade_no",
                        unique("T"),
                        "out_trade_no",
                        String.valueOf(id),
                        "total_amount",
                        "89.00",
                        "trade_status",
                        "TRADE_SUCCESS"));
        assertEquals(200, r.statusCode(), r.body());
        return id;
    }

    private JsonObject payment(long orderId) throws Exception {
        JsonArray payments = array(shop.get("payments?orderId=" + orderId).body());
        assertEquals(1, payments.size());
        return payments.getJsonObject(0);
    }

    @Test
    void runsAreAtLeastTheLockWindowApartAndEveryPaymentIsPaidOutOnce() throws Exception {
        List<Long> orders = List.of(paidOrder(), paidOrder(), paidOrder());
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        List<Long> batches = new ArrayList<>();
        for (long order : orders) {
            JsonObject p = payment(order);
            while (!p.containsKey("batchId") || p.isNull("batchId")) {
                assertTrue(System.nanoTime() < deadline, "payment of order " + order + " not paid out in " + DEADLINE);
                Thread.sleep(250);
                p = payment(order);
            }
            batches.add(p.getJsonNumber("batchId").longValue());
        }
        // Let a few more windows pass, so that there are several runs to compare.
        Thread.sleep(5_000);

        JsonArray runs = array(shop.get("payments/payouts?all=true").body());
        assertTrue(runs.size() >= 3, "the timer ran: " + runs.size() + " runs");
        List<Instant> starts = new ArrayList<>();
        for (JsonValue v : runs) {
            starts.add(Instant.parse(v.asJsonObject().getString("startedAt")));
        }
        starts.sort(null);
        for (int i = 1; i < starts.size(); i++) {
            long gap = Duration.between(starts.get(i - 1), starts.get(i)).toMillis();
            // The timer fires every second; without the lock, runs would start about 1 s apart. A
            // start is recorded a little after the lock is taken, so allow some slack below 2 s.
            assertTrue(gap >= 1_500, "two runs " + gap + " ms apart in one 2 s lock window: " + starts);
        }
        for (long batch : batches) {
            boolean listed = runs.stream()
                    .map(JsonValue::asJsonObject)
                    .anyMatch(b -> b.getJsonNumber("id").longValue() == batch && b.getInt("payments") >= 1);
            assertTrue(listed, "batch " + batch + " is a run that paid out");
        }
    }
}
