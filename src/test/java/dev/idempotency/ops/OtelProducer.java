package dev.idempotency.ops;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The OpenTelemetry bean MicroProfile Telemetry provides, here the real SDK with an in-memory reader. */
@ApplicationScoped
public class OtelProducer {

    /** What the SDK collected. */
    public static final InMemoryMetricReader READER = InMemoryMetricReader.create();

    private static final OpenTelemetry SDK = OpenTelemetrySdk.builder()
            .setMeterProvider(
                    SdkMeterProvider.builder().registerMetricReader(READER).build())
            .build();

    @Produces
    @ApplicationScoped
    OpenTelemetry openTelemetry() {
        return SDK;
    }
}
