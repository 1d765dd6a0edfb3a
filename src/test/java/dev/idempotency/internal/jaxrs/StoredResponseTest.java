package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredResponseTest {

    @Test
    void roundTripsStatusHeadersAndExactBytes() {
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Location", List.of("http://127.0.0.1/orders/7"));
        headers.put("ETag", List.of("\"v1\""));
        headers.put("Link", List.of("<a>; rel=x", "<b>; rel=y"));
        headers.put("X-Unicode", List.of("caf\u00e9"));
        StoredResponse r = new StoredResponse(201, headers, body, true, body.length);
        StoredResponse back = StoredResponse.decode(r.encode());
        assertThat(back.status()).isEqualTo(201);
        assertThat(back.headers()).containsExactlyEntriesOf(headers);
        assertThat(back.body()).isEqualTo(body);
        assertThat(back.bodyStored()).isTrue();
    }

    @Test
    void oversizeKeepsOnlyTheSize() {
        StoredResponse r = new StoredResponse(200, Map.of("ETag", List.of("x")), new byte[0], false, 5_000_000L);
        StoredResponse back = StoredResponse.decode(r.encode());
        assertThat(back.bodyStored()).isFalse();
        assertThat(back.bodySize()).isEqualTo(5_000_000L);
        assertThat(back.status()).isEqualTo(200);
    }

    @Test
    void neverStoresCredentialsCookiesOrHopByHopHeaders() {
        Map<String, List<String>> in = new LinkedHashMap<>();
        for (String h : List.of(
                "Set-Cookie",
                "set-cookie",
                "Authorization",
                "WWW-Authenticate",
                "Proxy-Authenticate",
                "Proxy-Authorization",
                "Connection",
                "Transfer-Encoding",
                "Content-Length",
                "Date",
                "Idempotent-Replayed")) {
            in.put(h, List.of("x"));
        }
        for (String h : List.of("Content-Type", "Location", "ETag", "Content-Language", "Cache-Control", "X-Trace")) {
            in.put(h, List.of("y"));
        }
        assertThat(StoredResponse.storableHeaders(in).keySet())
                .containsExactly("Content-Type", "Location", "ETag", "Content-Language", "Cache-Control", "X-Trace");
    }

    @Test
    void rejectsForeignBytes() {
        assertThatThrownBy(() -> StoredResponse.decode("{\"t\":\"value\"}".getBytes()))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] truncated = new StoredResponse(200, Map.of("A", List.of("b")), new byte[10], true, 10).encode();
        assertThatThrownBy(() -> StoredResponse.decode(java.util.Arrays.copyOf(truncated, 15)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
