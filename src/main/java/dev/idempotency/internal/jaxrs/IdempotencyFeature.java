package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.Declarations;
import dev.idempotency.internal.core.EntryPointServices;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Binds the Idempotency-Key filter to every resource method that is {@link Idempotent}: on the method,
 * on the resource interface's or superclass's method it implements, or on a type ({@link
 * Declarations}). Sub-resource methods (of a class a locator returns) are bound when the JAX-RS runtime
 * first matches them. Listed in {@code META-INF/services/jakarta.ws.rs.container.DynamicFeature}, which
 * Jakarta REST 3.1 loads from library jars, so an application registers nothing itself.
 *
 * <p>Called once per resource method at startup: the policy and the HTTP operation name are resolved
 * here, once, and handed to that method's filter.
 */
@Priority(ServicePriorities.IDEMPOTENCY_FEATURE) // one value per service: see ServicePriorities
public final class IdempotencyFeature implements DynamicFeature {

    /** Creates the feature; the JAX-RS runtime does this through {@link java.util.ServiceLoader}. */
    public IdempotencyFeature() {}

    @Override
    public void configure(ResourceInfo resourceInfo, FeatureContext context) {
        Method method = resourceInfo.getResourceMethod();
        Class<?> resourceClass = userClass(resourceInfo.getResourceClass());
        if (method == null || resourceClass == null) {
            return;
        }
        // Declared on the method, the resource interface's or a superclass's method, or a type.
        Idempotent annotation = Declarations.effective(method, resourceClass);
        if (annotation == null) {
            return;
        }
        String httpMethod = httpMethod(method);
        if (httpMethod == null) {
            return;
        }
        EntryPointServices runtime = runtime(method);
        HttpSettings http = HttpSettings.from(runtime.settings());
        OperationPolicy resolved = runtime.policies().resolve(method, annotation);
        // An explicit name keeps keys valid across URL refactors; otherwise the route names the operation.
        String name = resolved.name().equals(PolicyResolver.defaultName(method))
                ? routeName(httpMethod, resourceClass, method)
                : resolved.name();
        OperationPolicy policy = resolved.named(name);
        if (http.guards(httpMethod) && policy.joined() && isAsync(method)) {
            throw asyncJoined(method, name);
        }
        context.register(
                new IdempotencyFilter(method, http.guards(httpMethod), policy, runtime.engine(), http, seen(method)),
                Priorities.USER);
        if (http.guards(httpMethod)) {
            context.register(new ResourceHeaders(), ResourceHeaders.PRIORITY);
            context.register(new ResourceReached(), ResourceReached.PRIORITY);
        }
    }

    /** The refusal of an asynchronous resource method whose operation is in the joined mode. */
    static IdempotencyConfigurationException asyncJoined(Method method, String operation) {
        return new IdempotencyConfigurationException("@Idempotent on resource method "
                + PolicyResolver.describe(method) + " (operation '" + operation + "') cannot use the joined"
                + " transaction mode: it is asynchronous, and the JTA transaction the filter begins is bound to the"
                + " request's thread. Set "
                + PolicyResolver.howToSet(method, "transaction", Participation.SEPARATE)
                + ", or make the method synchronous.");
    }

    /** A CompletionStage result, or a suspended AsyncResponse: the response comes on another thread. */
    static boolean isAsync(Method method) {
        return java.util.concurrent.CompletionStage.class.isAssignableFrom(method.getReturnType())
                || isSuspended(method);
    }

    /** A parameter is a {@code @Suspended AsyncResponse}. */
    static boolean isSuspended(Method method) {
        for (Annotation[] annotations : method.getParameterAnnotations()) {
            for (Annotation a : annotations) {
                if (a.annotationType() == jakarta.ws.rs.container.Suspended.class) {
                    return true;
                }
            }
        }
        return false;
    }

    private static EntryPointServices runtime(Method method) {
        try {
            return CDI.current().select(EntryPointServices.class).get();
        } catch (RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "@Idempotent on resource method " + PolicyResolver.describe(method)
                            + " needs CDI, but no CDI container is available to this JAX-RS application ("
                            + e + "); deploy it in a Jakarta EE or MicroProfile server with CDI enabled.",
                    e);
        }
    }

    /** The client proxy of the request-scoped {@link FilteredRequest}: one serves every request. */
    private static FilteredRequest seen(Method method) {
        try {
            return CDI.current().select(FilteredRequest.class).get();
        } catch (RuntimeException e) {
            throw new IdempotencyConfigurationException(
                    "@Idempotent on resource method " + PolicyResolver.describe(method) + " needs the library's"
                            + " request-scoped bean " + FilteredRequest.class.getName() + ", which CDI does not"
                            + " provide (" + e + "): the library's jar must be a bean archive of the application"
                            + " (do not exclude it from bean discovery).",
                    e);
        }
    }

    /** The application's class behind a container proxy or subclass. */
    private static Class<?> userClass(Class<?> cls) {
        Class<?> c = cls;
        while (c != null
                && c.getSuperclass() != null
                && (c.isSynthetic() || c.getName().contains("$$"))) {
            c = c.getSuperclass();
        }
        return c;
    }

    /**
     * The default operation name of a resource method: the HTTP method and the route, e.g. {@code
     * POST /orders/{id}}. A sub-resource class (no {@code @Path} of its own, reached through a locator)
     * does not know the route it is reached by, and two of them would share {@code POST /}: its
     * methods are named by the method instead, e.g. {@code POST com.example.Items#add(Item)}.
     */
    static String routeName(String httpMethod, Class<?> resourceClass, Method method) {
        return classPath(resourceClass) == null
                ? httpMethod + " " + PolicyResolver.defaultName(method)
                : httpMethod + " " + template(resourceClass, method);
    }

    /**
     * The JAX-RS HTTP method of a resource method, or {@code null} for a sub-resource locator. Read
     * through JAX-RS annotation inheritance: from the method, or the interface or superclass method
     * it implements or overrides.
     */
    public static String httpMethod(Method method) {
        for (Method m : Declarations.hierarchy(method)) {
            for (Annotation a : m.getAnnotations()) {
                HttpMethod hm = a.annotationType().getAnnotation(HttpMethod.class);
                if (hm != null) {
                    return hm.value();
                }
            }
        }
        return null;
    }

    /** The matched resource template: the class and method {@code @Path}s, e.g. {@code /orders/{id}}. */
    public static String template(Class<?> resourceClass, Method method) {
        StringBuilder sb = new StringBuilder();
        Path onClass = classPath(resourceClass);
        if (onClass != null) {
            append(sb, onClass.value());
        }
        for (Method m : Declarations.hierarchy(method)) {
            Path onMethod = m.getAnnotation(Path.class);
            if (onMethod != null) {
                append(sb, onMethod.value());
                break;
            }
        }
        return sb.length() == 0 ? "/" : sb.toString();
    }

    /** The {@code @Path} of a resource class, its superclasses or its interfaces; {@code null} for none. */
    private static Path classPath(Class<?> resourceClass) {
        for (Class<?> c = resourceClass; c != null; c = c.getSuperclass()) {
            Path p = c.getAnnotation(Path.class);
            if (p != null) {
                return p;
            }
        }
        for (Class<?> c = resourceClass; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                Path p = i.getAnnotation(Path.class);
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }

    private static void append(StringBuilder sb, String segment) {
        String s = segment.strip();
        while (s.startsWith("/")) {
            s = s.substring(1);
        }
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        if (!s.isEmpty()) {
            sb.append('/').append(s);
        }
    }
}
