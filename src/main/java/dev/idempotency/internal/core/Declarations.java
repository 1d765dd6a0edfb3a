package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.Idempotent;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a method's {@link Idempotent} and {@link IdempotencyKey} declarations are, wherever users put
 * them: on the method, on a superclass method it overrides, on an interface method it implements
 * (abstract or default), or on a type. CDI does not inherit interceptor bindings from any of these
 * but the class, so the CDI extension and the JAX-RS feature both read them from here. The rule,
 * first match wins:
 *
 * <ol>
 *   <li>{@code @Idempotent} on the method itself.
 *   <li>{@code @Idempotent} on the nearest superclass method it overrides.
 *   <li>{@code @Idempotent} on an interface method it implements. Two interfaces declaring different
 *       ones are ambiguous and refused.
 *   <li>{@code @Idempotent} on the bean class or a superclass (public methods only).
 *   <li>{@code @Idempotent} on an interface that declares the method.
 * </ol>
 *
 * The whole annotation of the winning declaration applies; members are never merged across
 * declarations. Internal.
 */
public final class Declarations {

    private Declarations() {}

    /**
     * The method and the methods it overrides or implements, nearest first: the method, the
     * superclasses' methods upwards, then the interfaces' methods, breadth first.
     */
    public static List<Method> hierarchy(Method method) {
        List<Method> found = new ArrayList<>();
        found.add(method);
        Class<?> declaring = method.getDeclaringClass();
        ArrayDeque<Class<?>> interfaces = new ArrayDeque<>();
        for (Class<?> c = declaring; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c != declaring) {
                addDeclared(found, c, method);
            }
            interfaces.addAll(List.of(c.getInterfaces()));
        }
        Set<Class<?>> seen = new HashSet<>();
        while (!interfaces.isEmpty()) {
            Class<?> i = interfaces.poll();
            if (!seen.add(i)) {
                continue;
            }
            if (i != declaring) {
                addDeclared(found, i, method);
            }
            interfaces.addAll(List.of(i.getInterfaces()));
        }
        return found;
    }

    private static void addDeclared(List<Method> found, Class<?> type, Method method) {
        for (Method m : type.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (!m.isSynthetic()
                    && !Modifier.isPrivate(mod)
                    && !Modifier.isStatic(mod)
                    && m.getName().equals(method.getName())
                    && overrides(method, m)) {
                found.add(m);
                return;
            }
        }
    }

    /**
     * Whether {@code method} overrides or implements {@code declared}: the same parameter types, or,
     * where {@code declared} has a type variable parameter ({@code handle(T)} of a {@code
     * Handler<String>}), a type its erasure accepts.
     */
    private static boolean overrides(Method method, Method declared) {
        Class<?>[] own = method.getParameterTypes();
        Class<?>[] theirs = declared.getParameterTypes();
        if (own.length != theirs.length) {
            return false;
        }
        java.lang.reflect.Type[] generic = declared.getGenericParameterTypes();
        for (int i = 0; i < own.length; i++) {
            boolean same = own[i] == theirs[i];
            boolean typeVariable = generic.length == own.length
                    && generic[i] instanceof java.lang.reflect.TypeVariable<?>
                    && theirs[i].isAssignableFrom(own[i]);
            if (!same && !typeVariable) {
                return false;
            }
        }
        return true;
    }

    /**
     * The method that carries the {@code @Idempotent} applying to {@code method} at method level
     * (rules 1 to 3), or {@code null} when none does.
     *
     * @throws IdempotencyConfigurationException two interfaces declare it differently
     */
    public static Method annotatedMethod(Method method) {
        Method winner = null;
        for (Method m : hierarchy(method)) {
            Idempotent a = m.getAnnotation(Idempotent.class);
            if (a == null) {
                continue;
            }
            if (winner == null) {
                winner = m;
                if (!m.getDeclaringClass().isInterface()) {
                    return m; // a class declaration beats every interface declaration
                }
            } else if (!a.equals(winner.getAnnotation(Idempotent.class))) {
                throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                        + " is declared differently on " + PolicyResolver.describe(winner) + " and on "
                        + PolicyResolver.describe(m) + ", so neither applies unambiguously; put @Idempotent on "
                        + PolicyResolver.describe(method) + " itself to say which applies.");
            }
        }
        return winner;
    }

    /** The method-level {@code @Idempotent} applying to {@code method} (rules 1 to 3), or {@code null}. */
    public static Idempotent onMethod(Method method) {
        Method m = annotatedMethod(method);
        return m == null ? null : m.getAnnotation(Idempotent.class);
    }

    /**
     * The {@code @Idempotent} applying to a method as a bean class has it, by the rules above, or
     * {@code null} when the method is not guarded.
     *
     * @param method the method that runs
     * @param beanClass the bean class (the class-level {@code @Idempotent} is the bean's); {@code null}
     *     for the method's declaring class
     */
    public static Idempotent effective(Method method, Class<?> beanClass) {
        Idempotent a = onMethod(method);
        if (a != null) {
            return a;
        }
        if (!Modifier.isPublic(method.getModifiers())) {
            return null;
        }
        Class<?> cls = beanClass == null ? method.getDeclaringClass() : beanClass;
        a = cls.getAnnotation(Idempotent.class);
        if (a == null) {
            a = method.getDeclaringClass().getAnnotation(Idempotent.class);
        }
        if (a != null) {
            return a;
        }
        for (Method m : hierarchy(method)) {
            if (m.getDeclaringClass().isInterface()) {
                a = m.getDeclaringClass().getAnnotation(Idempotent.class);
                if (a != null) {
                    return a;
                }
            }
        }
        return null;
    }

    /**
     * What makes two guarded methods one operation: the method carrying their method-level {@code
     * @Idempotent} (two implementations of one named interface method are one operation), else the
     * method itself.
     */
    public static Method operationIdentity(Method method) {
        Method m = annotatedMethod(method);
        return m == null ? method : m;
    }

    /**
     * The {@code @IdempotencyKey} of a parameter: on the method's parameter, else on the same
     * parameter of the nearest method it overrides or implements; {@code null} when none.
     */
    public static IdempotencyKey keyOn(Method method, int parameter) {
        for (Method m : hierarchy(method)) {
            IdempotencyKey k = m.getParameters()[parameter].getAnnotation(IdempotencyKey.class);
            if (k != null) {
                return k;
            }
        }
        return null;
    }

    /**
     * Whether a type or any of its supertypes carries {@code @Idempotent} on itself or on a method:
     * a cheap test before looking at each of its methods.
     */
    public static boolean mayDeclare(Class<?> type) {
        ArrayDeque<Class<?>> types = new ArrayDeque<>();
        types.add(type);
        Set<Class<?>> seen = new HashSet<>();
        while (!types.isEmpty()) {
            Class<?> c = types.poll();
            if (c == Object.class || !seen.add(c) || c.getName().startsWith("java.")) {
                continue;
            }
            if (c.isAnnotationPresent(Idempotent.class)) {
                return true;
            }
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Idempotent.class)) {
                    return true;
                }
            }
            if (c.getSuperclass() != null) {
                types.add(c.getSuperclass());
            }
            types.addAll(List.of(c.getInterfaces()));
        }
        return false;
    }
}
