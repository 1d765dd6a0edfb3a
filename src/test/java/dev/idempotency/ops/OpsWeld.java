package dev.idempotency.ops;

import dev.idempotency.internal.cdi.IdempotencyExtension;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.cdi.IdempotentInterceptor;
import dev.idempotency.internal.cdi.IdempotentWorkInterceptor;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import dev.idempotency.internal.ops.health.HealthExtension;
import dev.idempotency.ops.inspection.InspectionJmx;
import dev.idempotency.ops.inspection.RecordInspector;
import dev.idempotency.ops.metrics.IdempotencyMetrics;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.junit5.WeldInitiator;

/** Boots Weld with the module's CDI glue and its operations beans, on a given MicroProfile Config. */
public final class OpsWeld {

    private OpsWeld() {}

    /** The Weld, after installing exactly these config values for the current class loader. */
    public static Weld weld(Map<String, String> config, Class<?>... beans) {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        resolver.releaseConfig(resolver.getConfig(cl));
        resolver.registerConfig(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(config, "test", 500))
                        .build(),
                cl);
        return WeldInitiator.createWeld()
                .addExtension(new IdempotencyExtension())
                .addExtension(new HealthExtension())
                .addBeanClasses(
                        IdempotentInterceptor.class,
                        IdempotentWorkInterceptor.class,
                        FilteredRequest.class,
                        IdempotencyRuntime.class,
                        IdempotencyMetrics.class,
                        RecordInspector.class,
                        InspectionJmx.class)
                .addBeanClasses(beans);
    }
}
