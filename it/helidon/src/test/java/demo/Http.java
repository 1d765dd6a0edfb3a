package demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Plain HTTP to the app on 127.0.0.1, every call bounded. */
final class Http {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private Http() {}

    /** POSTs JSON to {@code base + path}, with the {@code Idempotency-Key} header unless key is null. */
    static HttpResponse<String> post(URI base, String path, String key, String json) {
        try {
            return postAsync(base, path, key, json).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted posting to " + path, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("POST " + base.resolve(path) + " failed: " + e.getCause(), e.getCause());
        }
    }

    static CompletableFuture<HttpResponse<String>> postAsync(URI base, String path, String key, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String describe(HttpResponse<String> response) {
        return response.statusCode() + " " + response.headers().map() + " " + response.body();
    }
}
