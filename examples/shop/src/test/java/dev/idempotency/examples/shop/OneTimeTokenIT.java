package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.object;
import static dev.idempotency.examples.shop.ShopClient.order;
import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seeds 000 and 003, the anti-duplicate token: "Buy again" needs a token the server issued; of any
 * number of submissions with one token, exactly one places an order.
 */
@ExtendWith(ShopServer.class)
class OneTimeTokenIT {

    private final ShopClient shop = new ShopClient();

    private JsonObject issue() throws Exception {
        HttpResponse<String> r = shop.postJson("idempotency/tokens", "", null);
        assertEquals(201, r.statusCode(), r.body());
        return object(r.body());
    }

    private HttpResponse<String> buy(String customer, String header, String token) throws Exception {
        return shop.postJsonWith("quick-orders", order(customer, "BEANS", 1), header, token);
    }

    @Test
    void eightSimultaneousSubmissionsWithOneTokenPlaceOneOrder() throws Exception {
        String customer = unique("token");
        JsonObject issued = issue();
        String header = issued.getString("header");
        String token = issued.getString("token");
        List<Callable<HttpResponse<String>>> submits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            submits.add(() -> buy(customer, header, token));
        }
        List<HttpResponse<String>> answers = Together.run(submits);

        assertEquals(1, answers.stream().filter(r -> r.statusCode() == 201).count(), "one submission wins");
        for (HttpResponse<String> r : answers) {
            if (r.statusCode() != 201) {
                assertEquals(409, r.statusCode(), r.body());
                assertTrue(r.body().contains("token-used"), r.body());
            }
        }
        assertEquals(1, shop.ordersOf(customer).size());

        // Later: the same token is still used up; a new token buys again.
        assertEquals(409, buy(customer, header, token).statusCode());
        assertEquals(201, buy(customer, header, issue().getString("token")).statusCode());
        assertEquals(2, shop.ordersOf(customer).size());
    }

    @Test
    void aMissingOrForgedTokenPlacesNothing() throws Exception {
        String customer = unique("forged");
        String header = issue().getString("header");
        HttpResponse<String> missing = shop.postJsonWith("quick-orders", order(customer, "BEANS", 1), null, null);
        assertEquals(400, missing.statusCode());
        assertTrue(missing.body().contains("token-missing"), missing.body());
        HttpResponse<String> forged = buy(customer, header, "not-a-token-this-server-issued");
        assertEquals(400, forged.statusCode());
        assertTrue(forged.body().contains("token-unknown"), forged.body());
        assertEquals(0, shop.ordersOf(customer).size());
    }
}
