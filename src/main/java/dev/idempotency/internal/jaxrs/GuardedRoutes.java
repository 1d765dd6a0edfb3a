package dev.idempotency.internal.jaxrs;

import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.Declarations;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.spi.ConfigLookup;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The guarded resource methods of a set of {@code @Path} classes, found by the rules {@link
 * IdempotencyFeature} applies (an {@code @Idempotent} method, or a method of an {@code @Idempotent}
 * class, whose HTTP method {@code idempotency.http.methods} guards) but without the JAX-RS runtime:
 * for what must be known when the web application starts, before (or whether or not) JAX-RS binds
 * its filters. Internal.
 */
public final class GuardedRoutes {

    private GuardedRoutes() {}

    /**
     * One guarded resource method.
     *
     * @param httpMethod upper case, e.g. {@code POST}
     * @param template the class and method {@code @Path}s (without the application path)
     * @param operation the operation name
     * @param header the key header's name
     * @param required whether a request without the key is refused (400)
     * @param keyMaxLength the longest accepted key
     * @param method the resource method
     * @param transaction whether its records are written in the caller's transaction
     */
    public record Route(
            String httpMethod,
            String template,
            String operation,
            String header,
            boolean required,
            int keyMaxLength,
            Method method,
            Participation transaction) {

        /** Whether the response comes on another thread: a CompletionStage, or a suspended AsyncResponse. */
        public boolean async() {
            return IdempotencyFeature.isAsync(method);
        }
    }

    /**
     * The guarded routes of {@code classes}.
     *
     * @param classes the {@code @Path} classes (others are ignored)
     * @param settings the application's configuration
     * @return the routes, in no particular order
     */
    public static List<Route> of(Set<Class<?>> classes, ConfigLookup settings) {
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
                Idempotent annotation = Declarations.effective(method, cls);
                String httpMethod = IdempotencyFeature.httpMethod(method);
                if (annotation == null || httpMethod == null || !http.guards(httpMethod)) {
                    continue;
                }
                String template = IdempotencyFeature.template(cls, method);
                OperationPolicy policy = policies.resolve(method, annotation);
                String name = policy.name().equals(PolicyResolver.defaultName(method))
                        ? IdempotencyFeature.routeName(httpMethod, cls, method)
                        : policy.name();
                routes.add(new Route(
                        httpMethod.toUpperCase(Locale.ROOT),
                        template,
                        name,
                        http.header(),
                        policy.required(),
                        http.keyMaxLength(),
                        method,
                        policy.transaction()));
            }
        }
        return List.copyOf(routes);
    }
}
