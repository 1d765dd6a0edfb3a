package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.object;
import static dev.idempotency.examples.shop.ShopClient.order;
import static dev.idempotency.examples.shop.ShopClient.replayed;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Seed 000, "user places an order and clicks again": one order per Idempotency-Key, over real HTTP. */
@ExtendWith(ShopServer.class)
class OrdersIT {

    private final ShopClient shop = new ShopClient();

    @Test
    void fiveSimultaneousSubmitsOfOneFormFillPlaceOneOrder() throws Exception {
        String customer = unique("five");
        String key = UUID.randomUUID().toString();
        String body = order(customer, "GRINDER", 2);
        List<Callable<HttpResponse<String>>> clicks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clicks.add(() -> shop.postJson("orders", body, key));
        }
        List<HttpResponse<String>> answers = Together.run(clicks);

        assertEquals(1, shop.ordersOf(customer).size(), "five submits of one form fill made one order");
        long first = answers.stream()
                .filter(r -> r.statusCode() == 201 && !replayed(r))
                .count();
        assertEquals(1, first, "exactly one answer is the original 201");
        for (HttpResponse<String> r : answers) {
            assertTrue(
                    r.statusCode() == 201 || r.statusCode() == 409,
                    "201 or 409 (still running), got " + r.statusCode());
            if (r.statusCode() == 409) {
                assertTrue(r.headers().firstValue("Retry-After").isPresent(), "409 says when to retry");
                assertTrue(r.body().contains("in-progress"), r.body());
            }
        }
        HttpResponse<String> original = answers.stream()
                .filter(r -> r.statusCode() == 201 && !replayed(r))
                .findFirst()
                .orElseThrow();

        // The user retries later (or the browser resends): the same 201, Location and bytes come back.
        HttpResponse<String> retry = shop.postJson("orders", body, key);
        assertEquals(201, retry.statusCode());
        assertTrue(replayed(retry), "the retry is marked Idempotent-Replayed");
        assertEquals(original.headers().firstValue("Location"), retry.headers().firstValue("Location"));
        assertEquals(original.body(), retry.body(), "the exact stored body");
        assertEquals(1, shop.ordersOf(customer).size());
        JsonObject placed = object(original.body());
        assertEquals("NEW", placed.getString("status"));
        assertEquals(178.0, placed.getJsonNumber("total").doubleValue());
    }

    @Test
    void manyFormFillsClickedFourTimesEachRacingTogetherPlaceOneOrderEach() throws Exception {
        String customer = unique("storm");
        int fills = 12;
        int clicksPerFill = 4;
        List<Callable<Integer>> clicks = new ArrayList<>();
        for (int f = 0; f < fills; f++) {
            String key = UUID.randomUUID().toString();
            String body = order(customer, "BEANS", f + 1);
            for (int c = 0; c < clicksPerFill; c++) {
                clicks.add(() -> shop.postJson("orders", body, key).statusCode());
            }
        }
        List<Integer> statuses = Together.run(clicks);

        assertTrue(statuses.stream().allMatch(s -> s == 201 || s == 409), statuses.toString());
        assertEquals(fills, shop.ordersOf(customer).size(), "one order per form fill, none lost, none doubled");
        List<Integer> quantities = new ArrayList<>();
        shop.ordersOf(customer).forEach(o -> quantities.add(o.asJsonObject().getInt("quantity")));
        assertEquals(fills, quantities.stream().distinct().count(), "each fill's own order: " + quantities);
    }

    @Test
    void twoFormFillsWithTheSameContentAreTwoOrders() throws Exception {
        String customer = unique("twice");
        String body = order(customer, "KETTLE", 1);
        assertEquals(
                201, shop.postJson("orders", body, UUID.randomUUID().toString()).statusCode());
        assertEquals(
                201, shop.postJson("orders", body, UUID.randomUUID().toString()).statusCode());
        assertEquals(2, shop.ordersOf(customer).size(), "the key, not the content, tells orders apart");
    }

    @Test
    void aKeyReusedForAnotherOrderIsRefusedWith422() throws Exception {
        String customer = unique("reuse");
        String key = UUID.randomUUID().toString();
        assertEquals(
                201, shop.postJson("orders", order(customer, "KETTLE", 1), key).statusCode());
        HttpResponse<String> other = shop.postJson("orders", order(customer, "KETTLE", 3), key);
        assertEquals(422, other.statusCode());
        assertTrue(other.body().contains("key-mismatch"), other.body());
        assertEquals(1, shop.ordersOf(customer).size());
        assertEquals(1, shop.ordersOf(customer).get(0).asJsonObject().getInt("quantity"));
    }

    /** The page's live panel reads the library's counters: a run, two replays and a 422 show up in them. */
    @Test
    void theCountersEndpointCountsAnOrderItsReplaysAndAMismatch() throws Exception {
        long[] before = placeCounters();
        String customer = unique("counted");
        String key = UUID.randomUUID().toString();
        assertEquals(
                201, shop.postJson("orders", order(customer, "KETTLE", 1), key).statusCode());
        for (int i = 0; i < 2; i++) {
            assertTrue(replayed(shop.postJson("orders", order(customer, "KETTLE", 1), key)));
        }
        assertEquals(
                422, shop.postJson("orders", order(customer, "KETTLE", 2), key).statusCode());
        long[] after = placeCounters();
        // Other tests of this class may run orders meanwhile only before or after, never during: JUnit runs
        // a class's methods one at a time.
        assertEquals(1, after[0] - before[0], "executions");
        assertEquals(2, after[1] - before[1], "replays");
        assertEquals(1, after[2] - before[2], "mismatches");
    }

    /** executions, replays and mismatches of shop.orders.place, from GET api/ops/counters. */
    private long[] placeCounters() throws Exception {
        HttpResponse<String> r = shop.get("ops/counters");
        assertEquals(200, r.statusCode(), r.body());
        for (jakarta.json.JsonValue v : object(r.body()).getJsonArray("operations")) {
            jakarta.json.JsonObject o = v.asJsonObject();
            if (o.getString("operation").equals("shop.orders.place")) {
                return new long[] {
                    o.getJsonNumber("executions").longValue(),
                    o.getJsonNumber("replays").longValue(),
                    o.getJsonNumber("mismatches").longValue()
                };
            }
        }
        return new long[3];
    }

    @Test
    void anOrderWithoutKeyIsRefusedWith400AndNotPlaced() throws Exception {
        String customer = unique("nokey");
        HttpResponse<String> r = shop.postJson("orders", order(customer, "BEANS", 1), null);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("key-missing"), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertEquals(0, shop.ordersOf(customer).size());
    }

    @Test
    void anInvalidOrderIsAKeptOutcomeTheRetryGetsTheSame400() throws Exception {
        String customer = unique("invalid");
        String key = UUID.randomUUID().toString();
        HttpResponse<String> first = shop.postJson("orders", order(customer, "BEANS", 0), key);
        HttpResponse<String> again = shop.postJson("orders", order(customer, "BEANS", 0), key);
        assertEquals(400, first.statusCode());
        assertEquals(400, again.statusCode());
        assertTrue(replayed(again), "a 400 is an outcome: replayed, not re-validated");
        assertEquals(first.body(), again.body());
        assertEquals(0, shop.ordersOf(customer).size());
    }
}
