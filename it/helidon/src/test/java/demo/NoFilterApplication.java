package demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/**
 * An app that lists its resources itself and turns off Jersey's {@code META-INF/services} lookup: the
 * library's JAX-RS feature, and so its HTTP filter, is never registered. Not a bean by discovery (no
 * bean-defining annotation): {@link NoFilterTest} alone adds it.
 */
@ApplicationPath("/")
public class NoFilterApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(OrdersResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return Map.of("jersey.config.server.disableMetainfServicesLookup", true);
    }
}
