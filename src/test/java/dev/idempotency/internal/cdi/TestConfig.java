package dev.idempotency.internal.cdi;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/** Installs a MicroProfile Config made of given keys for the current class loader. */
final class TestConfig {

    private TestConfig() {}

    /** Replaces the config that ConfigProvider.getConfig() returns with exactly these values. */
    static void use(Map<String, String> values) {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        resolver.releaseConfig(resolver.getConfig(cl));
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(values, "test", 500))
                .build();
        resolver.registerConfig(config, cl);
    }
}
