package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads a method's key from its arguments: the {@link IdempotencyKey} values on parameters, or on
 * fields and record components of a parameter's type, in {@code order}. Built once per method; the
 * accessors are resolved up front, so a key that cannot be read fails at deployment.
 */
public final class KeyReader {

    private final List<Part> parts;

    private KeyReader(List<Part> parts) {
        this.parts = List.copyOf(parts);
    }

    /**
     * Finds the key values of a method.
     *
     * @throws IdempotencyConfigurationException a marked field cannot be read
     */
    public static KeyReader of(Method method) {
        List<Part> parts = new ArrayList<>();
        Parameter[] params = method.getParameters();
        for (int i = 0; i < params.length; i++) {
            Parameter p = params[i];
            // On the parameter, or on the method it overrides or implements: CDI and JAX-RS users declare
            // keys on interfaces too.
            IdempotencyKey onParam = Declarations.keyOn(method, i);
            if (onParam != null) {
                parts.add(new Part(
                        onParam.order(),
                        i,
                        0,
                        PolicyResolver.describeParameter(method, i),
                        null,
                        method.getGenericParameterTypes()[i]));
                continue;
            }
            int position = 0;
            for (Member m : members(p.getType(), method)) {
                parts.add(new Part(
                        m.key.order(),
                        i,
                        position++,
                        m.name + " of " + PolicyResolver.describeParameter(method, i),
                        m.getter,
                        m.type));
            }
        }
        parts.sort(Comparator.comparingInt(Part::order)
                .thenComparingInt(Part::param)
                .thenComparingInt(Part::position));
        return new KeyReader(parts);
    }

    /** Whether the method declares any key value; without one, the key is the arguments' fingerprint. */
    public boolean hasKeys() {
        return !parts.isEmpty();
    }

    /**
     * The key text: a canonical JSON array of the key values' texts; {@code null} when a value is
     * missing (null or blank), or when the method declares no key values.
     */
    public String read(Object[] args) {
        if (parts.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(32).append('[');
        for (int i = 0; i < parts.size(); i++) {
            Object value = parts.get(i).value(args);
            if (isMissing(value)) {
                return null;
            }
            if (i > 0) {
                sb.append(',');
            }
            CanonicalJson.appendString(
                    sb, CanonicalJson.keyText(value, parts.get(i).type()));
        }
        return sb.append(']').toString();
    }

    /**
     * The key text {@link #read} makes from these key values, in {@code order}: what an operator passes
     * to the inspection API to address the record of a call made with them.
     */
    public static String text(Object... values) {
        StringBuilder sb = new StringBuilder(32).append('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            CanonicalJson.appendString(sb, CanonicalJson.keyText(values[i]));
        }
        return sb.append(']').toString();
    }

    /** Which key value is missing, for the error message: names the parameter, never its value. */
    public String describeMissing(Object[] args) {
        for (Part part : parts) {
            if (isMissing(part.value(args))) {
                return part.description + " (order " + part.order + ") is null or blank";
            }
        }
        return "no key value is missing";
    }

    private static boolean isMissing(Object value) {
        return value == null
                || (value instanceof CharSequence cs && cs.toString().isBlank());
    }

    private record Member(IdempotencyKey key, String name, MethodHandle getter, Type type) {}

    private static List<Member> members(Class<?> type, Method method) {
        List<Member> result = new ArrayList<>();
        if (type.isPrimitive() || type.isArray() || type.getName().startsWith("java.")) {
            return result;
        }
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        if (type.isRecord()) {
            for (RecordComponent rc : type.getRecordComponents()) {
                IdempotencyKey key = rc.getAnnotation(IdempotencyKey.class);
                if (key != null) {
                    result.add(new Member(
                            key,
                            "record component '" + rc.getName() + "'",
                            getter(lookup, rc, method),
                            rc.getGenericType()));
                }
            }
            return result;
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.add(0, c);
        }
        for (Class<?> c : hierarchy) {
            for (Field f : c.getDeclaredFields()) {
                IdempotencyKey key = f.getAnnotation(IdempotencyKey.class);
                if (key != null && !Modifier.isStatic(f.getModifiers())) {
                    result.add(new Member(
                            key, "field '" + f.getName() + "'", getter(lookup, f, method), f.getGenericType()));
                }
            }
        }
        return result;
    }

    private static MethodHandle getter(MethodHandles.Lookup lookup, RecordComponent rc, Method method) {
        try {
            Method accessor = rc.getAccessor();
            accessor.setAccessible(true);
            return lookup.unreflect(accessor);
        } catch (RuntimeException | IllegalAccessException e) {
            throw unreadable(method, rc.getDeclaringRecord().getName() + "." + rc.getName(), e);
        }
    }

    private static MethodHandle getter(MethodHandles.Lookup lookup, Field f, Method method) {
        try {
            f.setAccessible(true);
            return lookup.unreflectGetter(f);
        } catch (RuntimeException | IllegalAccessException e) {
            throw unreadable(method, f.getDeclaringClass().getName() + "." + f.getName(), e);
        }
    }

    private static IdempotencyConfigurationException unreadable(Method method, String what, Exception e) {
        return new IdempotencyConfigurationException(
                "The @IdempotencyKey " + what + " used by " + PolicyResolver.describe(method)
                        + " cannot be read (" + e + "); open its package to this module or put"
                        + " @IdempotencyKey on a method parameter instead.",
                e);
    }

    /** One key value: where it is read from, and its declared type, which its text follows. */
    private record Part(int order, int param, int position, String description, MethodHandle getter, Type type) {
        Object value(Object[] args) {
            Object arg = args[param];
            if (getter == null || arg == null) {
                return arg;
            }
            try {
                return getter.invoke(arg);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("reading " + description, t);
            }
        }
    }
}
