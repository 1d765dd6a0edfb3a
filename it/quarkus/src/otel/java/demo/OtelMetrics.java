package demo;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What Quarkus's OpenTelemetry SDK exported, served back for OpenTelemetryOnQuarkusIT: the app's one metric
 * exporter is the SDK's in-memory exporter (Quarkus's default {@code cdi} exporter takes the {@code
 * MetricExporter} bean), so no collector is needed.
 */
@Path("otel")
@ApplicationScoped
public class OtelMetrics {

    @Inject
    OpenTelemetry openTelemetry;

    @Inject
    InMemoryMetricExporter exporter;

    /** The exporter of the SDK's periodic metric reader. */
    @Produces
    @Singleton
    static InMemoryMetricExporter inMemoryExporter() {
        return InMemoryMetricExporter.create();
    }

    /**
     * Collects and exports now, then lists each point of the metric {@code name} as last exported, one line
     * each: its attributes ({@code key=value}, sorted, comma-separated), a space, and its value (a sum) or
     * its count (a histogram).
     */
    @GET
    @Path("points/{name}")
    @jakarta.ws.rs.Produces("text/plain")
    public String points(@PathParam("name") String name) {
        if (!(openTelemetry instanceof OpenTelemetrySdk sdk)) {
            return "the OpenTelemetry bean is a " + openTelemetry.getClass().getName() + ", not the SDK\n";
        }
        sdk.getSdkMeterProvider().forceFlush().join(10, TimeUnit.SECONDS);
        Map<String, String> last = new TreeMap<>();
        for (MetricData d : exporter.getFinishedMetricItems()) {
            if (!d.getName().equals(name)) {
                continue;
            }
            switch (d.getType()) {
                case LONG_SUM -> d.getLongSumData()
                        .getPoints()
                        .forEach(p -> last.put(attributes(p), Long.toString(p.getValue())));
                case HISTOGRAM -> d.getHistogramData()
                        .getPoints()
                        .forEach(p -> last.put(attributes(p), Long.toString(p.getCount())));
                default -> last.put("(type " + d.getType() + ")", "");
            }
        }
        StringBuilder b = new StringBuilder();
        last.forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
        return b.toString();
    }

    private static String attributes(PointData p) {
        return p.getAttributes().asMap().entrySet().stream()
                .map(e -> e.getKey().getKey() + "=" + e.getValue())
                .sorted()
                .collect(Collectors.joining(","));
    }
}
