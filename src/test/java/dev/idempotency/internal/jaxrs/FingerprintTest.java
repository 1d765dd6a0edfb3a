package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FingerprintTest {

    private static final Map<String, List<String>> NO_HEADERS = Map.of();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sameRequestSameFingerprint() {
        assertThat(Fingerprint.of("POST", "/orders", "a=1", NO_HEADERS, b("{}")))
                .isEqualTo(Fingerprint.of("POST", "/orders", "a=1", NO_HEADERS, b("{}")))
                .hasSize(64);
    }

    @Test
    void everyPartCounts() {
        String base = Fingerprint.of("POST", "/orders", "a=1", NO_HEADERS, b("{}"));
        assertThat(Fingerprint.of("PATCH", "/orders", "a=1", NO_HEADERS, b("{}")))
                .isNotEqualTo(base);
        assertThat(Fingerprint.of("POST", "/orders/1", "a=1", NO_HEADERS, b("{}")))
                .isNotEqualTo(base);
        assertThat(Fingerprint.of("POST", "/orders", "a=2", NO_HEADERS, b("{}")))
                .isNotEqualTo(base);
        assertThat(Fingerprint.of("POST", "/orders", "a=1", NO_HEADERS, b("{ }")))
                .isNotEqualTo(base);
        assertThat(Fingerprint.of("POST", "/orders", null, NO_HEADERS, b("{}"))).isNotEqualTo(base);
    }

    @Test
    void noQueryDiffersFromEmptyQuery() {
        assertThat(Fingerprint.of("POST", "/o", null, NO_HEADERS, new byte[0]))
                .isNotEqualTo(Fingerprint.of("POST", "/o", "", NO_HEADERS, new byte[0]));
    }

    @Test
    void movingBytesBetweenPartsChangesTheFingerprint() {
        assertThat(Fingerprint.of("POST", "/ab", null, NO_HEADERS, b("c")))
                .isNotEqualTo(Fingerprint.of("POST", "/a", null, NO_HEADERS, b("bc")));
    }

    @Test
    void configuredHeadersCountAndAbsentDiffersFromEmpty() {
        Map<String, List<String>> eur = new LinkedHashMap<>();
        eur.put("x-currency", List.of("EUR"));
        Map<String, List<String>> usd = new LinkedHashMap<>();
        usd.put("x-currency", List.of("USD"));
        Map<String, List<String>> absent = new LinkedHashMap<>();
        absent.put("x-currency", List.of());
        Map<String, List<String>> empty = new LinkedHashMap<>();
        empty.put("x-currency", List.of(""));
        String a = Fingerprint.of("POST", "/o", null, eur, new byte[0]);
        assertThat(Fingerprint.of("POST", "/o", null, usd, new byte[0])).isNotEqualTo(a);
        assertThat(Fingerprint.of("POST", "/o", null, absent, new byte[0]))
                .isNotEqualTo(Fingerprint.of("POST", "/o", null, empty, new byte[0]));
    }

    @Test
    void theFormatIsPinnedBecauseStoredRecordsDependOnIt() {
        // Each part as a 4-byte big-endian length and its UTF-8 bytes; a header's value count before its
        // values (computed independently with Python's hashlib and struct).
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("x-tenant", List.of("acme"));
        assertThat(Fingerprint.of("POST", "/orders", "a=1", headers, b("{}")))
                .isEqualTo("0f67306c0b19b7152c77155a1d806d6e8b956256e29fe7497daa1e0322c060f4");
    }
}
