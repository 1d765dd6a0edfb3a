package dev.idempotency.ops.openapi;

import dev.idempotency.jaxrs.GuardedRoutes;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.ws.rs.Path;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Finds the guarded resource methods of a web application when it starts, for {@link
 * IdempotencyOasFilter}: the servlet container hands this initializer every {@code @Path} class of
 * the WAR, and {@link GuardedRoutes} applies the rules {@code IdempotencyFeature} applies. Done here rather than by the JAX-RS feature because servers build the OpenAPI document at
 * deployment, before JAX-RS binds its filters, and on a thread without the application's CDI.
 * Listed in {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}.
 */
@HandlesTypes(Path.class)
public class GuardedOperations implements ServletContainerInitializer {

    private static final System.Logger LOG = System.getLogger(GuardedOperations.class.getName());
    private static final Map<ClassLoader, List<Route>> BY_LOADER = Collections.synchronizedMap(new WeakHashMap<>());

    /** One guarded resource method. */
    public record Route(
            String httpMethod, String template, String operation, String header, boolean required, int keyMaxLength) {}

    /** Created by the servlet container. */
    public GuardedOperations() {}

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        if (classes == null || classes.isEmpty()) {
            return;
        }
        try {
            BY_LOADER.put(
                    context.getClassLoader(),
                    routes(classes, ConfigProvider.getConfig(context.getClassLoader())::getOptionalValue));
        } catch (RuntimeException | LinkageError e) {
            // Invalid idempotency settings fail the deployment elsewhere, with their own message.
            LOG.log(Level.DEBUG, "guarded operations not collected for the OpenAPI document", e);
        }
    }

    private interface Lookup {
        java.util.Optional<String> get(String key, Class<String> type);
    }

    private static List<Route> routes(Set<Class<?>> classes, Lookup config) {
        List<Route> routes = new ArrayList<>();
        for (GuardedRoutes.Route r : GuardedRoutes.of(classes, key -> config.get(key, String.class))) {
            routes.add(
                    new Route(r.httpMethod(), r.template(), r.operation(), r.header(), r.required(), r.keyMaxLength()));
        }
        return List.copyOf(routes);
    }

    /** The guarded routes of the web application of this class loader (or of one of its parents). */
    public static List<Route> of(ClassLoader loader) {
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            List<Route> r = BY_LOADER.get(l);
            if (r != null) {
                return r;
            }
        }
        return List.of();
    }
}
