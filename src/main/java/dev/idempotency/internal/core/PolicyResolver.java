package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.InProgressPolicy;
import dev.idempotency.Participation;
import dev.idempotency.spi.ConfigLookup;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Merges an {@link Idempotent} annotation with configuration into an {@link OperationPolicy}, in the
 * MicroProfile Fault Tolerance form, most specific first:
 *
 * <ol>
 *   <li>{@code <class>/<method>/Idempotent/<member>}
 *   <li>{@code <class>/Idempotent/<member>}
 *   <li>{@code Idempotent/<member>}
 *   <li>the annotation's value
 *   <li>for {@code ttl} and {@code lease} left empty: {@code idempotency.ttl}, {@code
 *       idempotency.lease}
 * </ol>
 *
 * {@code <class>} is the fully qualified name of the type that declares the method that runs (the
 * implementation), also when its {@code @Idempotent} is declared on an interface or superclass
 * method: the implementations of one interface are separate operations, configured apart.
 */
public final class PolicyResolver {

    /** The annotation's simple name, as it appears in config keys. */
    public static final String ANNOTATION = "Idempotent";

    private final ConfigLookup settings;
    private final GlobalSettings global;

    /** @param settings where config values come from */
    public PolicyResolver(ConfigLookup settings) {
        this.settings = settings;
        this.global = GlobalSettings.from(settings);
    }

    /**
     * The policy of a method.
     *
     * @param method the guarded method
     * @param annotation the effective annotation (on the method, else on its class)
     * @throws IdempotencyConfigurationException naming the method, the key and the fix
     */
    public OperationPolicy resolve(Method method, Idempotent annotation) {
        Lookup lookup = new Lookup(method);
        String name = name(method, annotation);
        Duration ttl = lookup.duration("ttl", annotation.ttl(), global::ttl);
        Duration lease = lookup.duration("lease", annotation.lease(), global::lease);
        InProgressPolicy onInProgress = lookup.read(
                "onInProgress",
                key -> settings.enumOf(key, InProgressPolicy.class, annotation.onInProgress()),
                annotation.onInProgress());
        List<Class<? extends Throwable>> keepOn =
                lookup.get("keepOn").map(v -> lookup.classes("keepOn", v)).orElse(List.of(annotation.keepOn()));
        List<Class<? extends Throwable>> releaseOn = lookup.get("releaseOn")
                .map(v -> lookup.classes("releaseOn", v))
                .orElse(List.of(annotation.releaseOn()));
        boolean required =
                lookup.read("required", key -> settings.bool(key, annotation.required()), annotation.required());
        Participation transaction = lookup.read(
                "transaction",
                key -> settings.enumOf(key, Participation.class, annotation.transaction()),
                annotation.transaction());
        return new OperationPolicy(
                name, ttl, lease, onInProgress, new ExceptionPolicy(keepOn, releaseOn), required, transaction);
    }

    /**
     * The operation name. {@code name} is per operation, so it follows its own rule: {@code
     * <class>/<method>/Idempotent/name}, else the method annotation's name, else a class-level name
     * ({@code <class>/Idempotent/name} or the class annotation's) as a prefix, {@code <name>.<method>},
     * or {@code <name>.<method>(<parameter types>)} for an overloaded method, so that the methods of
     * one class never share records; else {@link #defaultName}. A global
     * {@code Idempotent/name} is rejected: it would put every operation in one namespace.
     */
    private String name(Method method, Idempotent annotation) {
        String cls = method.getDeclaringClass().getName();
        if (settings.get(ANNOTATION + "/name").filter(v -> !v.isBlank()).isPresent()) {
            throw new IdempotencyConfigurationException("Config key '" + ANNOTATION
                    + "/name' would give every @Idempotent operation the same name, so unrelated operations"
                    + " would replay each other's outcomes; remove it and set names per method with '" + cls + "/"
                    + method.getName() + "/" + ANNOTATION + "/name' or @Idempotent(name = ...).");
        }
        Optional<String> methodLevel = settings.get(cls + "/" + method.getName() + "/" + ANNOTATION + "/name")
                .map(String::trim)
                .filter(v -> !v.isEmpty());
        if (methodLevel.isPresent()) {
            return methodLevel.get();
        }
        Idempotent onMethod = Declarations.onMethod(method);
        if (onMethod != null && !onMethod.name().isBlank()) {
            return onMethod.name().trim();
        }
        String classLevel = settings.get(cls + "/" + ANNOTATION + "/name")
                .map(String::trim)
                .filter(v -> !v.isEmpty())
                .orElse(onMethod == null ? annotation.name().trim() : "");
        if (classLevel.isEmpty()) {
            return defaultName(method);
        }
        // Overloads would share <name>.<method>; the parameter types part them, and a method that is
        // not overloaded keeps the plain name its records were written under.
        return classLevel + "." + method.getName() + (isOverloaded(method) ? parameterTypes(method) : "");
    }

    /** Whether the method's class has another method of the same name that a caller can reach. */
    private static boolean isOverloaded(Method method) {
        Set<List<Class<?>>> signatures = new HashSet<>();
        signatures.add(List.of(method.getParameterTypes()));
        for (Class<?> c = method.getDeclaringClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(method.getName())
                        && !m.isSynthetic()
                        && !Modifier.isPrivate(m.getModifiers())
                        && !Modifier.isStatic(m.getModifiers())) {
                    signatures.add(List.of(m.getParameterTypes()));
                }
            }
        }
        for (Method m : method.getDeclaringClass().getMethods()) {
            // Object's methods (notify, wait) are never guarded, so they do not make a name ambiguous.
            if (m.getName().equals(method.getName())
                    && m.getDeclaringClass() != Object.class
                    && !m.isSynthetic()
                    && !Modifier.isStatic(m.getModifiers())) {
                signatures.add(List.of(m.getParameterTypes()));
            }
        }
        return signatures.size() > 1;
    }

    private static String parameterTypes(Method method) {
        return Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName)
                .collect(Collectors.joining(",", "(", ")"));
    }

    /**
     * The default operation name: declaring class, method name and parameter types, e.g. {@code
     * com.example.Orders#place(String,Order)}. Overloads get different names.
     */
    public static String defaultName(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName() + parameterTypes(method);
    }

    /**
     * A parameter as messages name it: {@code parameter 'orderId'}, or, when the class was compiled
     * without {@code -parameters} (the name would be {@code arg0}), {@code parameter #1 (String)}.
     */
    public static String describeParameter(Method method, int index) {
        java.lang.reflect.Parameter p = method.getParameters()[index];
        return p.isNamePresent()
                ? "parameter '" + p.getName() + "'"
                : "parameter #" + (index + 1) + " (" + p.getType().getSimpleName() + ")";
    }

    /**
     * How a message tells the user to set one member of a method's policy: {@code config key
     * 'com.example.Orders/place/Idempotent/transaction=separate' or @Idempotent(transaction = SEPARATE)}.
     */
    public static String howToSet(Method method, String member, Enum<?> value) {
        return "config key '" + method.getDeclaringClass().getName() + "/" + method.getName() + "/" + ANNOTATION + "/"
                + member + "=" + value.name().toLowerCase(java.util.Locale.ROOT) + "' or @" + ANNOTATION + "("
                + member + " = " + value.name() + ")";
    }

    /** A human name of a method for messages: {@code com.example.Orders#place}. */
    public static String describe(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName();
    }

    /** Config lookups for one method, in precedence order. */
    private final class Lookup {
        private final Method method;
        private final String[] prefixes;

        Lookup(Method method) {
            this.method = method;
            String cls = method.getDeclaringClass().getName();
            this.prefixes = new String[] {
                cls + "/" + method.getName() + "/" + ANNOTATION + "/", cls + "/" + ANNOTATION + "/", ANNOTATION + "/"
            };
        }

        /** The most specific key that sets the member (blank counts as unset). */
        Optional<String> key(String member) {
            for (String prefix : prefixes) {
                if (settings.text(prefix + member).isPresent()) {
                    return Optional.of(prefix + member);
                }
            }
            return Optional.empty();
        }

        Optional<String> get(String member) {
            return key(member).flatMap(settings::text);
        }

        /** The key the value came from, for error messages. */
        String source(String member) {
            return key(member)
                    .map(key -> "config key '" + key + "'")
                    .orElse("@Idempotent(" + member + ") on " + describe(method));
        }

        /**
         * The member as its most specific key sets it, read by {@code reader} (which names the key when the
         * value is invalid), else the annotation's value.
         */
        <T> T read(String member, Function<String, T> reader, T annotationValue) {
            Optional<String> key = key(member);
            if (key.isEmpty()) {
                return annotationValue;
            }
            try {
                return reader.apply(key.get());
            } catch (IdempotencyConfigurationException e) {
                throw new IdempotencyConfigurationException(
                        "Invalid " + member + " for " + describe(method) + ": " + e.getMessage(), e);
            }
        }

        Duration duration(String member, String annotationValue, java.util.function.Supplier<Duration> fallback) {
            Optional<String> configured = get(member);
            String text = configured.orElse(annotationValue);
            if (text.isBlank()) {
                return fallback.get();
            }
            try {
                return ConfigLookup.duration(member, text);
            } catch (IdempotencyConfigurationException e) {
                throw new IdempotencyConfigurationException(
                        "Invalid " + member + " for " + describe(method) + ": " + source(member) + " is '" + text
                                + "'; write a positive ISO-8601 duration such as PT30S, PT24H or P7D.",
                        e);
            }
        }

        List<Class<? extends Throwable>> classes(String member, String text) {
            List<Class<? extends Throwable>> result = new ArrayList<>();
            ClassLoader loader = method.getDeclaringClass().getClassLoader();
            for (String raw : text.split(",")) {
                String className = raw.trim();
                if (className.isEmpty()) {
                    continue;
                }
                Class<?> c;
                try {
                    c = Class.forName(className, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IdempotencyConfigurationException(
                            "Invalid " + member + " for " + describe(method) + ": " + source(member)
                                    + " names class '" + className
                                    + "', which cannot be loaded; write fully qualified exception class names separated by commas.",
                            e);
                }
                if (!Throwable.class.isAssignableFrom(c)) {
                    throw new IdempotencyConfigurationException("Invalid " + member + " for " + describe(method)
                            + ": " + source(member) + " names '" + className
                            + "', which is not an exception type; list Throwable subclasses only.");
                }
                result.add(c.asSubclass(Throwable.class));
            }
            return result;
        }
    }
}
