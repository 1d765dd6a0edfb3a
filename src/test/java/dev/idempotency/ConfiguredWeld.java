package dev.idempotency;

import dev.idempotency.internal.cdi.IdempotencyExtension;
import dev.idempotency.internal.cdi.IdempotencyRuntime;
import dev.idempotency.internal.cdi.IdempotentInterceptor;
import dev.idempotency.internal.cdi.IdempotentWorkInterceptor;
import dev.idempotency.internal.jaxrs.FilteredRequest;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.inject.spi.Extension;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * A Weld SE container with its own MicroProfile Config, for tests of a store's CDI wiring: the
 * extension under test, the library's runtime and guard (its extension and interceptors, without which
 * a runtime does not start), and the given beans, without discovery.
 */
public final class ConfiguredWeld {

    private ConfiguredWeld() {}

    /**
     * Runs {@code body} in a container whose MicroProfile Config holds {@code config}; the container
     * is shut down afterwards (its beans disposed).
     */
    public static void run(
            Map<String, String> config, Extension extension, Class<?>[] beans, Consumer<WeldContainer> body)
            throws Exception {
        run(config, new Extension[] {extension}, beans, body);
    }

    /** The same, with several extensions (e.g. a store's and the library's {@code IdempotencyExtension}). */
    public static void run(
            Map<String, String> config, Extension[] extensions, Class<?>[] beans, Consumer<WeldContainer> body)
            throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        // A class loader of its own, so this config is registered for this container alone.
        try (URLClassLoader loader = new URLClassLoader(new URL[0], previous)) {
            ConfigProviderResolver resolver = ConfigProviderResolver.instance();
            resolver.registerConfig(
                    new SmallRyeConfigBuilder()
                            .withSources(new PropertiesConfigSource(config, "test", 500))
                            .build(),
                    loader);
            Thread.currentThread().setContextClassLoader(loader);
            try (WeldContainer c = new Weld()
                    .disableDiscovery()
                    .addExtensions(withGuard(extensions))
                    .addBeanClasses(beans)
                    .addBeanClasses(
                            IdempotencyRuntime.class,
                            IdempotentInterceptor.class,
                            IdempotentWorkInterceptor.class,
                            FilteredRequest.class)
                    .initialize()) {
                body.accept(c);
            } finally {
                resolver.releaseConfig(resolver.getConfig(loader));
                Thread.currentThread().setContextClassLoader(previous);
            }
        }
    }

    /** The given extensions, and the library's own when they lack it: a runtime starts only with it. */
    private static Extension[] withGuard(Extension[] extensions) {
        for (Extension e : extensions) {
            if (e instanceof IdempotencyExtension) {
                return extensions;
            }
        }
        Extension[] all = java.util.Arrays.copyOf(extensions, extensions.length + 1);
        all[extensions.length] = new IdempotencyExtension();
        return all;
    }
}
