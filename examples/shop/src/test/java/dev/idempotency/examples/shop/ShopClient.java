package dev.idempotency.examples.shop;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** Plain {@link HttpClient} calls to the running demo, as any client of its API would make them. */
final class ShopClient {

    static final String KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    URI uri(String path) {
        return ShopServer.base().resolve(path);
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri("api/" + path))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJson(String path, String json, String key) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("api/" + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            b.header(KEY, key);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJsonWith(String path, String json, String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("api/" + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (header != null) {
            b.header(header, value);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postForm(String path, Map<String, String> form) throws Exception {
        String body = form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return http.send(
                HttpRequest.newBuilder(uri("api/" + path))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String order(String customer, String product, int quantity) {
        return Json.createObjectBuilder()
                .add("customer", customer)
                .add("product", product)
                .add("quantity", quantity)
                .build()
                .toString();
    }

    /** Places an order under a fresh key and returns it. */
    JsonObject placeOrder(String customer, String product, int quantity) throws Exception {
        HttpResponse<String> r = postJson(
                "orders", order(customer, product, quantity), UUID.randomUUID().toString());
        if (r.statusCode() != 201) {
            throw new AssertionError("placing an order answered " + r.statusCode() + ": " + r.body());
        }
        return object(r.body());
    }

    JsonArray ordersOf(String customer) throws Exception {
        HttpResponse<String> r = get("orders?customer=" + URLEncoder.encode(customer, StandardCharsets.UTF_8));
        if (r.statusCode() != 200) {
            throw new AssertionError("listing orders answered " + r.statusCode());
        }
        return array(r.body());
    }

    static boolean replayed(HttpResponse<?> r) {
        return r.headers().firstValue(REPLAYED).orElse("").equals("true");
    }

    static JsonObject object(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }

    static JsonArray array(String json) {
        return Json.createReader(new StringReader(json)).readArray();
    }
}
