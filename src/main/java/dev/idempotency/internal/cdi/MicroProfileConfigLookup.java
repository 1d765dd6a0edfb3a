package dev.idempotency.internal.cdi;

import dev.idempotency.spi.ConfigLookup;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** {@link ConfigLookup} read from MicroProfile Config (system properties, env, microprofile-config.properties). */
final class MicroProfileConfigLookup implements ConfigLookup {

    private final Config config;

    MicroProfileConfigLookup(Config config) {
        this.config = config;
    }

    /** The application's config, as the thread context class loader sees it. */
    static MicroProfileConfigLookup current() {
        return new MicroProfileConfigLookup(ConfigProvider.getConfig());
    }

    @Override
    public Optional<String> get(String key) {
        return config.getOptionalValue(key, String.class);
    }
}
