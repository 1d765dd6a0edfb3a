package dev.idempotency.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.spi.HealthCheckResponseProvider;

/**
 * The response builder an MP Health implementation provides (outside a server there is none); the
 * health endpoint itself is tested on Payara (OpsIT).
 */
final class PlainHealthResponses implements HealthCheckResponseProvider {

    static void install() {
        HealthCheckResponse.setResponseProvider(new PlainHealthResponses());
    }

    @Override
    public HealthCheckResponseBuilder createResponseBuilder() {
        return new HealthCheckResponseBuilder() {
            private String name;
            private boolean up;
            private final Map<String, Object> data = new LinkedHashMap<>();

            @Override
            public HealthCheckResponseBuilder name(String n) {
                name = n;
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, String value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, long value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, boolean value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder up() {
                up = true;
                return this;
            }

            @Override
            public HealthCheckResponseBuilder down() {
                up = false;
                return this;
            }

            @Override
            public HealthCheckResponseBuilder status(boolean u) {
                up = u;
                return this;
            }

            @Override
            public HealthCheckResponse build() {
                return new HealthCheckResponse(
                        name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN, Optional.of(data));
            }
        };
    }
}
