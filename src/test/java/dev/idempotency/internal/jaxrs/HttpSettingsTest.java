package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpSettingsTest {

    private static HttpSettings of(String key, String value) {
        return HttpSettings.from(ConfigLookup.of(Map.of(key, value)));
    }

    @Test
    void defaults() {
        HttpSettings s = HttpSettings.from(ConfigLookup.none());
        assertThat(s.header()).isEqualTo("Idempotency-Key");
        assertThat(s.methods()).containsExactlyInAnyOrder("POST", "PATCH");
        assertThat(s.guards("post")).isTrue();
        assertThat(s.guards("PUT")).isFalse();
        assertThat(s.keyMaxLength()).isEqualTo(255);
        assertThat(s.scope()).isEqualTo(new HttpSettings.Scope("principal", null));
        assertThat(s.fingerprintHeaders()).isEmpty();
        assertThat(s.maxStoredBody()).isEqualTo(1024 * 1024);
        assertThat(s.failOpen()).isFalse();
    }

    @Test
    void keptAndReleasedStatuses() {
        HttpSettings s = HttpSettings.from(ConfigLookup.none());
        assertThat(s.releases(200)).isFalse();
        assertThat(s.releases(201)).isFalse();
        assertThat(s.releases(303)).isFalse();
        assertThat(s.releases(400)).isFalse();
        assertThat(s.releases(404)).isFalse();
        assertThat(s.releases(422)).isFalse();
        for (int released : new int[] {408, 409, 425, 429, 500, 502, 503, 504, 599}) {
            assertThat(s.releases(released)).as("%d", released).isTrue();
        }
        HttpSettings custom = of(HttpSettings.RELEASE_STATUSES, "404, 423");
        assertThat(custom.releases(404)).isTrue();
        assertThat(custom.releases(429)).isFalse();
        assertThat(custom.releases(500)).isTrue();
    }

    @Test
    void parsesScopes() {
        assertThat(of(HttpSettings.SCOPE, "NONE").scope().kind()).isEqualTo("none");
        assertThat(of(HttpSettings.SCOPE, "header:X-Tenant-Id").scope())
                .isEqualTo(new HttpSettings.Scope("header", "X-Tenant-Id"));
    }

    @Test
    void fingerprintHeadersAreLowerCaseAndSorted() {
        assertThat(of(HttpSettings.FINGERPRINT_HEADERS, "X-B, x-a ,").fingerprintHeaders())
                .containsExactly("x-a", "x-b");
    }

    @Test
    void invalidValuesNameTheKeyAndTheFix() {
        assertInvalid(HttpSettings.METHODS, "POST,GET", "safe method");
        assertInvalid(HttpSettings.METHODS, " , ", "at least one");
        assertInvalid(HttpSettings.METHODS, "PO ST", "not an HTTP method");
        assertInvalid(HttpSettings.HEADER, "Idempotency Key", "not a valid HTTP header name");
        assertInvalid(HttpSettings.KEY_MAX_LENGTH, "0", "from 1 to 8192");
        assertInvalid(HttpSettings.KEY_MAX_LENGTH, "abc", "whole number");
        assertInvalid(HttpSettings.SCOPE, "tenant", "header:<Header-Name>");
        assertInvalid(HttpSettings.SCOPE, "header:", "not a valid HTTP header name");
        assertInvalid(HttpSettings.RELEASE_STATUSES, "500", "200 to 499");
        assertInvalid(HttpSettings.RELEASE_STATUSES, "4xx", "not a status code");
        assertInvalid(HttpSettings.MAX_STORED_BODY, "-1", "whole number");
        assertInvalid(HttpSettings.FAIL_OPEN, "yes", "true or false");
        assertInvalid(HttpSettings.FINGERPRINT_HEADERS, "X-A,bad header", "not a valid HTTP header name");
    }

    private static void assertInvalid(String key, String value, String fix) {
        assertThatThrownBy(() -> of(key, value))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(fix);
    }
}
