package dev.idempotency.ops.openapi;

import dev.idempotency.Idempotent;
import dev.idempotency.core.OperationPolicy;
import dev.idempotency.core.PolicyResolver;
import dev.idempotency.core.Settings;
import dev.idempotency.jaxrs.HttpSettings;
import dev.idempotency.jaxrs.IdempotencyFeature;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.ws.rs.Path;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Finds the guarded resource methods of a web application when it starts, for {@link
 * IdempotencyOasFilter}: the servlet container hands this initializer every {@code @Path} class of
 * the WAR, and it applies the rules {@code IdempotencyFeature} applies (an {@code @Idempotent} method,
 * or a method of an {@code @Idempotent} class, whose HTTP method {@code idempotency.http.methods}
 * guards). Done here rather than by the JAX-RS feature because servers build the OpenAPI document at
 * deployment, before JAX-RS binds its filters, and on a thread without the application's CDI.
 * Listed in {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}.
 */
@HandlesTypes(Path.class)
public class GuardedOperations implements ServletContainerInitializer {

    private static final System.Logger LOG = System.getLogger(GuardedOperations.class.getName());
    private static final Map<ClassLoader, List<Route>> BY_LOADER = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * One guarded resource method.
     *
     * @param httpMethod upper case, e.g. {@code POST}
     * @param template the class and method {@code @Path}s (without the application path)
     * @param operation the operation name
     * @param header the key header's name
     * @param required whether a request without the key is refused (400)
     * @param keyMaxLength the longest accepted key
     */
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
        Settings settings = key -> config.get(key, String.class);
        HttpSettings http = HttpSettings.from(settings);
        PolicyResolver policies = new PolicyResolver(settings);
        List<Route> routes = new ArrayList<>();
        for (Class<?> cls : classes) {
            if (cls.isInterface() || cls.getAnnotation(Path.class) == null) {
                continue;
            }
            for (Method method : cls.getMethods()) {
                if (Modifier.isStatic(method.getModifiers())) {
                    continue;
                }
                Idempotent annotation = method.getAnnotation(Idempotent.class);
                if (annotation == null) {
                    annotation = cls.getAnnotation(Idempotent.class);
                }
                String httpMethod = IdempotencyFeature.httpMethod(method);
                if (annotation == null || httpMethod == null || !http.guards(httpMethod)) {
                    continue;
                }
                String template = IdempotencyFeature.template(cls, method);
                OperationPolicy policy = policies.resolve(method, annotation);
                String name = policy.name().equals(PolicyResolver.defaultName(method))
                        ? httpMethod + " " + template
                        : policy.name();
                routes.add(new Route(
                        httpMethod.toUpperCase(Locale.ROOT),
                        template,
                        name,
                        http.header(),
                        policy.required(),
                        http.keyMaxLength()));
            }
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
