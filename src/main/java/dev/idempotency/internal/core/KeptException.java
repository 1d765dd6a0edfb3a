package dev.idempotency.internal.core;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How a kept exception of one class is stored and rebuilt: its message and the fields its own classes
 * declare, between it and {@code Throwable}, {@code Exception}, {@code RuntimeException} or {@code
 * Error}, without static and transient fields. Fields declared by Java platform classes (such as
 * {@code SQLException}'s SQL state) cannot be set from outside the platform and are not kept; nor are
 * the cause, stack trace and suppressed exceptions. Computed once per class.
 *
 * <p>An exception is rebuilt through the first constructor of {@code (String)}, {@code (String,
 * Throwable)} and {@code ()} that, once the stored field values are set, gives the stored message;
 * none does, and the replay fails instead of handing back an exception with other state.
 */
final class KeptException {

    private static final ClassValue<KeptException> SHAPES = new ClassValue<>() {
        @Override
        protected KeptException computeValue(Class<?> type) {
            return new KeptException(type);
        }
    };

    private final Class<?> type;
    /** The kept fields, accessible, by their stored name. */
    private final Map<String, Field> fields;
    /** Why a field of this class cannot be kept, or {@code null}. */
    private final String unkept;
    /** The constructors tried when rebuilding, in order. */
    private final List<Constructor<?>> constructors;

    private KeptException(Class<?> type) {
        this.type = type;
        List<Field> own = new ArrayList<>();
        String problem = null;
        for (Class<?> c = type; c != null && !isBase(c); c = c.getSuperclass()) {
            if (!c.getModule().isOpen(c.getPackageName(), KeptException.class.getModule())) {
                break; // a platform class: its fields cannot be set, and its superclasses are platform classes too
            }
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) {
                    continue;
                }
                ReadBack.Problem p = ReadBack.problem(f.getGenericType());
                if (p != null && problem == null) {
                    problem = "its field " + c.getSimpleName() + "." + f.getName() + " cannot be kept: " + p.describe()
                            + ", or mark the field transient so that it is not kept";
                }
                if (problem == null && !f.trySetAccessible()) {
                    problem = "its field " + c.getSimpleName() + "." + f.getName()
                            + " cannot be set from outside its module; open the package, or mark the field transient";
                }
                own.add(f);
            }
        }
        Set<String> names = new HashSet<>();
        Set<String> repeated = new HashSet<>();
        for (Field f : own) {
            if (!names.add(f.getName())) {
                repeated.add(f.getName());
            }
        }
        Map<String, Field> byName = new LinkedHashMap<>();
        for (Field f : own) {
            // a name that two classes of the hierarchy declare is stored with its class
            byName.put(
                    repeated.contains(f.getName()) ? f.getDeclaringClass().getName() + "." + f.getName() : f.getName(),
                    f);
        }
        this.fields = byName;
        this.unkept = problem;
        List<Constructor<?>> tried = new ArrayList<>();
        for (Class<?>[] params : new Class<?>[][] {{String.class}, {String.class, Throwable.class}, {}}) {
            try {
                Constructor<?> c = type.getDeclaredConstructor(params);
                if (c.trySetAccessible()) {
                    tried.add(c);
                }
            } catch (NoSuchMethodException e) {
                // not this one
            }
        }
        this.constructors = tried;
    }

    private static boolean isBase(Class<?> c) {
        return c == Throwable.class || c == Exception.class || c == RuntimeException.class || c == Error.class;
    }

    /** The shape of a class of exception. */
    static KeptException of(Class<?> type) {
        return SHAPES.get(type);
    }

    /** Why this class of exception cannot be kept faithfully, or {@code null}. */
    String unkept() {
        return unkept;
    }

    /**
     * Adds the exception's fields to its stored form as {@code "fields"}, or, when one cannot be kept,
     * the reason as {@code "unkept"}.
     */
    void write(Throwable t, JsonObjectBuilder stored) {
        if (unkept != null) {
            stored.add("unkept", unkept);
            return;
        }
        JsonObjectBuilder values = CanonicalJson.JSON.createObjectBuilder();
        for (Map.Entry<String, Field> e : fields.entrySet()) {
            Field f = e.getValue();
            try {
                Object v = f.get(t);
                if (v == null) {
                    values.addNull(e.getKey());
                    continue;
                }
                String json = CanonicalJson.jsonb().toJson(v, f.getGenericType());
                try (JsonReader r = CanonicalJson.JSON.createReader(new StringReader(json))) {
                    values.add(e.getKey(), r.readValue());
                }
            } catch (IllegalAccessException | RuntimeException ex) {
                stored.add(
                        "unkept",
                        "its field " + f.getDeclaringClass().getSimpleName() + "." + f.getName()
                                + " could not be written with JSON-B (" + ex
                                + "); make its value JSON-B serializable, or mark the field transient");
                return;
            }
        }
        stored.add("fields", values);
    }

    /**
     * Rebuilds an exception stored with its fields.
     *
     * @return the exception, or {@code null} when no constructor rebuilds it with the stored message
     * @throws RuntimeException a stored field value cannot be read back (the class changed since)
     */
    Throwable rebuild(String message, JsonObject stored) throws ReflectiveOperationException {
        Map<Field, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Field> e : fields.entrySet()) {
            JsonValue v = stored.get(e.getKey());
            if (v == null) {
                continue; // a field added since the record was written keeps what the constructor gave it
            }
            Field f = e.getValue();
            values.put(
                    f,
                    v.getValueType() == JsonValue.ValueType.NULL
                            ? null
                            : CanonicalJson.jsonb().fromJson(v.toString(), f.getGenericType()));
        }
        for (Constructor<?> c : constructors) {
            Object[] args =
                    switch (c.getParameterCount()) {
                        case 0 -> new Object[0];
                        case 1 -> new Object[] {message};
                        default -> new Object[] {message, null};
                    };
            Throwable t;
            try {
                t = (Throwable) c.newInstance(args);
            } catch (InvocationTargetException e) {
                continue; // this constructor refuses the message as an argument; try the next
            }
            for (Map.Entry<Field, Object> v : values.entrySet()) {
                Field f = v.getKey();
                if (f.getType().isPrimitive() && v.getValue() == null) {
                    continue;
                }
                f.set(t, v.getValue());
            }
            if (Objects.equals(t.getMessage(), message)) {
                return t;
            }
        }
        return null;
    }

    /** The constructors tried, for an error message. */
    String triedConstructors() {
        return type.getSimpleName() + "(String), " + type.getSimpleName() + "(String, Throwable) and "
                + type.getSimpleName() + "()";
    }
}
