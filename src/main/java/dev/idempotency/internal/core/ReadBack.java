package dev.idempotency.internal.core;

import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbCreator;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbTransient;
import jakarta.json.bind.annotation.JsonbTypeAdapter;
import jakarta.json.bind.annotation.JsonbTypeDeserializer;
import jakarta.json.bind.annotation.JsonbTypeInfo;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Decides from a declared type alone whether JSON-B reads a stored value of that type back as that
 * type. The rules are Yasson's (the JSON-B of Payara, GlassFish, WildFly and Open Liberty), read off
 * its deserializers:
 *
 * <ol>
 *   <li>Its built-in types (strings, numbers but {@code Number}, {@code java.time}, {@code UUID},
 *       {@code URI}, dates, JSON-P values), enums and primitives are read back.
 *   <li>A type with its own {@code @JsonbTypeDeserializer}, {@code @JsonbTypeAdapter} or {@code
 *       @JsonbTypeInfo} is read back as its annotation says.
 *   <li>Arrays, {@code Optional<T>}, collections and maps are read back when their element (key,
 *       value) types are, their type arguments are declared, and JSON-B has a class to create: an
 *       interface it maps to an implementation ({@code List}, {@code Set}, {@code SortedSet}, {@code
 *       Queue}, {@code Deque}, {@code Collection}, any {@code Map}), or a concrete class.
 *   <li>{@code Object}, {@code Number}, other interfaces and abstract classes are not: JSON-B cannot
 *       tell which class the stored value had.
 *   <li>A class is read back when it is public, not an inner class, and has a {@code @JsonbCreator}
 *       constructor or static factory with named parameters, or is a record with one constructor, or
 *       has a public {@code @ConstructorProperties} constructor, or a public or protected no-argument
 *       constructor (Yasson calls no private or package-private one); and the types of its creator
 *       parameters and of the properties JSON-B sets (public fields, setters) are read back too.
 * </ol>
 */
final class ReadBack {

    /**
     * Why a value cannot be read back.
     *
     * @param path where in the declared type: the type, then {@code .property}, {@code element},
     *     {@code key} or {@code value} steps
     * @param reason what JSON-B cannot do there
     * @param fix what the user changes
     */
    record Problem(String path, String type, String reason, String fix) {
        Problem(String path, String reason, String fix) {
            this(path, null, reason, fix);
        }

        /** One sentence for an error message. */
        String describe() {
            return "JSON-B cannot read back " + path + (type == null || type.equals(path) ? "" : " (" + type + ")")
                    + ": " + reason + "; " + fix;
        }
    }

    /** Yasson's built-in deserializers (TypeDeserializers), by name: some live outside java.base. */
    private static final Set<String> BUILT_IN = Set.of(
            "java.math.BigInteger",
            "java.math.BigDecimal",
            "java.lang.Boolean",
            "java.lang.Byte",
            "java.util.Calendar",
            "java.lang.Character",
            "java.util.Date",
            "java.lang.Double",
            "java.time.Duration",
            "java.lang.Float",
            "java.util.GregorianCalendar",
            "java.time.Instant",
            "java.lang.Integer",
            "java.time.LocalDate",
            "java.time.LocalDateTime",
            "java.time.LocalTime",
            "java.lang.Long",
            "java.time.MonthDay",
            "java.time.OffsetDateTime",
            "java.time.OffsetTime",
            "java.nio.file.Path",
            "java.time.Period",
            "java.lang.Short",
            "java.lang.String",
            "java.util.SimpleTimeZone",
            "java.util.TimeZone",
            "java.net.URI",
            "java.net.URL",
            "java.util.UUID",
            "javax.xml.datatype.XMLGregorianCalendar",
            "java.time.YearMonth",
            "java.time.ZonedDateTime",
            "java.time.ZoneId",
            "java.time.ZoneOffset",
            "java.sql.Date",
            "java.sql.Timestamp",
            "java.util.OptionalInt",
            "java.util.OptionalLong",
            "java.util.OptionalDouble",
            "java.lang.Void");

    private static final String NO_CONSTRUCTOR_FIX = "return a record, or give the class a public or protected"
            + " no-argument constructor and setters (or public fields), or mark a constructor or static factory"
            + " @JsonbCreator";
    private static final String CONCRETE_FIX =
            "declare the concrete type the method returns (a JSON-P JsonObject for free-form JSON), or annotate the"
                    + " type @JsonbTypeInfo naming its subtypes";

    /** Nesting deeper than this is not followed (a generic type that grows with each step). */
    private static final int MAX_DEPTH = 32;

    private ReadBack() {}

    /** The first reason a value of the type cannot be read back, or {@code null} when it can. */
    static Problem problem(Type type) {
        return new Walk().check(type, typeName(type), 0);
    }

    private static final class Walk {
        private final Set<Type> seen = new HashSet<>();

        Problem check(Type type, String path, int depth) {
            Problem p = checkType(type, path, depth);
            return p == null || p.type() != null ? p : new Problem(p.path(), typeName(type), p.reason(), p.fix());
        }

        private Problem checkType(Type type, String path, int depth) {
            if (depth > MAX_DEPTH) {
                return null;
            }
            if (type instanceof WildcardType w) {
                return check(w.getUpperBounds()[0], path, depth);
            }
            if (type instanceof TypeVariable<?> v) {
                return new Problem(
                        path,
                        "it is the type variable " + v.getName() + ", so JSON-B does not know which class to create",
                        "declare a concrete type (override the method in the bean class with its concrete type)");
            }
            if (type instanceof GenericArrayType g) {
                return check(g.getGenericComponentType(), path + " element", depth + 1);
            }
            if (!seen.add(type)) {
                return null; // a cycle through the type, already being checked
            }
            Class<?> raw = rawType(type);
            if (raw == null) {
                return null;
            }
            if (raw.isPrimitive()
                    || BUILT_IN.contains(raw.getName())
                    || Enum.class.isAssignableFrom(raw)
                    || JsonValue.class.isAssignableFrom(raw)
                    || hasOwnReader(raw)) {
                return null;
            }
            if (raw == Object.class) {
                return new Problem(
                        path,
                        "JSON-B reads Object back as a map, list, string, number or boolean, not as the class that"
                                + " was returned",
                        CONCRETE_FIX);
            }
            if (raw == Number.class) {
                return new Problem(
                        path,
                        "JSON-B reads Number back as a BigDecimal, whatever number was returned",
                        "declare the concrete number type");
            }
            if (raw.isArray()) {
                return check(raw.getComponentType(), path + " element", depth + 1);
            }
            if (raw == Optional.class) {
                return typeArgument(type, 0, path + " value", "Optional<T>", depth);
            }
            if (Collection.class.isAssignableFrom(raw)) {
                Problem p = EnumSet.class.isAssignableFrom(raw) ? null : container(raw, collectionClass(raw), path);
                return p != null ? p : typeArgument(type, 0, path + " element", "List<T>", depth);
            }
            if (Map.class.isAssignableFrom(raw)) {
                Problem p = container(raw, mapClass(raw), path);
                if (p == null) {
                    p = typeArgument(type, 0, path + " key", "Map<K, V>", depth);
                }
                return p != null ? p : typeArgument(type, 1, path + " value", "Map<K, V>", depth);
            }
            return object(type, raw, path, depth);
        }

        private Problem typeArgument(Type type, int index, String path, String shape, int depth) {
            if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
                return check(p.getActualTypeArguments()[index], path, depth + 1);
            }
            return new Problem(
                    path,
                    "its type is not declared (a raw type, or a class extending a generic one), so JSON-B reads"
                            + " it as Object",
                    "declare it with its type arguments, as " + shape);
        }

        /** A collection or map: JSON-B creates the class it maps an interface to, or the class itself. */
        private Problem container(Class<?> raw, Class<?> created, String path) {
            if (raw.isInterface()) {
                return raw.isAssignableFrom(created)
                        ? null
                        : new Problem(
                                path,
                                "JSON-B has no implementation of the interface " + raw.getName(),
                                "declare List, Set, SortedSet, Queue, Deque, Collection or Map, or a concrete class");
            }
            if (Modifier.isAbstract(raw.getModifiers())) {
                return new Problem(path, "it is an abstract class, which JSON-B cannot create", CONCRETE_FIX);
            }
            return noArgConstructor(raw, path);
        }

        private Problem object(Type type, Class<?> raw, String path, int depth) {
            if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
                return new Problem(
                        path,
                        "it is " + (raw.isInterface() ? "an interface" : "an abstract class")
                                + ", so JSON-B cannot tell which class to create",
                        CONCRETE_FIX);
            }
            if (!Modifier.isPublic(raw.getModifiers())) {
                return new Problem(
                        path,
                        "the class is not public, so JSON-B cannot create it or set its properties",
                        "make it public");
            }
            if (raw.getEnclosingClass() != null && !Modifier.isStatic(raw.getModifiers())) {
                return new Problem(
                        path,
                        "it is an inner class, created only with an instance of its enclosing class",
                        "make it a static nested or top-level class");
            }
            Map<TypeVariable<?>, Type> vars = typeVariables(type, raw);
            Executable creator;
            try {
                creator = creator(raw);
            } catch (IllegalStateException e) {
                return new Problem(path, e.getMessage(), "keep one");
            }
            Set<String> created = new HashSet<>();
            if (creator != null) {
                for (Parameter p : creator.getParameters()) {
                    JsonbProperty named = p.getAnnotation(JsonbProperty.class);
                    boolean hasName = named != null && !named.value().isEmpty();
                    if (!hasName && !p.isNamePresent() && !raw.isRecord()) {
                        return new Problem(
                                path,
                                "the parameters of its creator " + creator.getName()
                                        + " have no names at run time (compiled without -parameters)",
                                "compile with -parameters, or put @JsonbProperty(\"name\") on each parameter");
                    }
                    created.add(hasName ? named.value() : p.getName());
                    if (!hasOwnReader(p)) {
                        Problem inner =
                                check(resolve(p.getParameterizedType(), vars), path + "." + p.getName(), depth + 1);
                        if (inner != null) {
                            return inner;
                        }
                    }
                }
            } else if (raw.isRecord()) {
                return new Problem(
                        path,
                        "it is a record with more than one constructor, and JSON-B uses only a record's single one",
                        "mark the canonical constructor @JsonbCreator, or remove the others");
            } else {
                Problem p = noArgConstructor(raw, path);
                if (p != null) {
                    return p;
                }
            }
            if (raw.isRecord()) {
                return null; // its components are final: JSON-B sets them only through the creator
            }
            return properties(raw, vars, path, depth, created);
        }

        /** The properties JSON-B sets: public fields that are not final, and public setters. */
        private Problem properties(
                Class<?> raw, Map<TypeVariable<?>, Type> vars, String path, int depth, Set<String> created) {
            Map<TypeVariable<?>, Type> level = vars;
            for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    int m = f.getModifiers();
                    if (!Modifier.isPublic(m)
                            || Modifier.isStatic(m)
                            || Modifier.isFinal(m)
                            || Modifier.isTransient(m)
                            || f.isAnnotationPresent(JsonbTransient.class)
                            || hasOwnReader(f)
                            || created.contains(f.getName())) {
                        continue;
                    }
                    Problem p = check(resolve(f.getGenericType(), level), path + "." + f.getName(), depth + 1);
                    if (p != null) {
                        return p;
                    }
                }
                for (Method setter : c.getDeclaredMethods()) {
                    int m = setter.getModifiers();
                    String name = setter.getName();
                    if (!Modifier.isPublic(m)
                            || Modifier.isStatic(m)
                            || setter.isBridge()
                            || setter.getParameterCount() != 1
                            || name.length() < 4
                            || !name.startsWith("set")
                            || !Character.isUpperCase(name.charAt(3))
                            || setter.isAnnotationPresent(JsonbTransient.class)
                            || hasOwnReader(setter)) {
                        continue;
                    }
                    String property = Character.toLowerCase(name.charAt(3)) + name.substring(4);
                    if (created.contains(property)) {
                        continue;
                    }
                    Problem p = check(
                            resolve(setter.getGenericParameterTypes()[0], level), path + "." + property, depth + 1);
                    if (p != null) {
                        return p;
                    }
                }
                level = typeVariables(resolve(c.getGenericSuperclass(), level), c.getSuperclass());
            }
            return null;
        }
    }

    /**
     * The creator JSON-B uses: the {@code @JsonbCreator} constructor or static factory, a record's only
     * constructor, or a public {@code @ConstructorProperties} constructor; {@code null} when it uses the
     * no-argument constructor (or, for a record with several constructors, none).
     *
     * @throws IllegalStateException the class has several creators, which JSON-B refuses
     */
    private static Executable creator(Class<?> raw) {
        List<Executable> marked = new ArrayList<>();
        for (Constructor<?> c : raw.getDeclaredConstructors()) {
            if (c.isAnnotationPresent(JsonbCreator.class)) {
                marked.add(c);
            }
        }
        for (Method m : raw.getDeclaredMethods()) {
            if (m.isAnnotationPresent(JsonbCreator.class) && Modifier.isStatic(m.getModifiers())) {
                if (m.getReturnType() != raw) {
                    throw new IllegalStateException(
                            "its @JsonbCreator factory " + m.getName() + " does not return " + raw.getSimpleName());
                }
                marked.add(m);
            }
        }
        if (marked.size() > 1) {
            throw new IllegalStateException("it has more than one @JsonbCreator, which JSON-B refuses");
        }
        if (marked.size() == 1) {
            return marked.get(0);
        }
        Constructor<?>[] all = raw.getDeclaredConstructors();
        if (raw.isRecord()) {
            return all.length == 1 ? all[0] : null;
        }
        for (Constructor<?> c : all) {
            if (Modifier.isPublic(c.getModifiers())
                    && Arrays.stream(c.getAnnotations())
                            .anyMatch(a -> a.annotationType().getName().equals("java.beans.ConstructorProperties"))) {
                return c;
            }
        }
        return null;
    }

    private static Problem noArgConstructor(Class<?> raw, String path) {
        Constructor<?> c;
        try {
            c = raw.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return new Problem(path, "it has no no-argument constructor and no @JsonbCreator", NO_CONSTRUCTOR_FIX);
        }
        int m = c.getModifiers();
        if (!Modifier.isPublic(m) && !Modifier.isProtected(m)) {
            return new Problem(
                    path,
                    "its no-argument constructor is " + (Modifier.isPrivate(m) ? "private" : "package-private")
                            + ", which JSON-B does not call",
                    "make it public or protected");
        }
        return null;
    }

    /** Whether the type or member names its own JSON-B reading, which then decides. */
    private static boolean hasOwnReader(AnnotatedElement e) {
        if (e.isAnnotationPresent(JsonbTypeDeserializer.class) || e.isAnnotationPresent(JsonbTypeAdapter.class)) {
            return true;
        }
        if (e instanceof Class<?> c) {
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                if (k.isAnnotationPresent(JsonbTypeInfo.class)
                        || Arrays.stream(k.getInterfaces()).anyMatch(i -> i.isAnnotationPresent(JsonbTypeInfo.class))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The class Yasson creates for a collection type (CollectionInstanceCreator). */
    private static Class<?> collectionClass(Class<?> raw) {
        if (!raw.isInterface()) {
            return raw;
        }
        if (List.class.isAssignableFrom(raw)) {
            return ArrayList.class;
        }
        if (Set.class.isAssignableFrom(raw)) {
            return SortedSet.class.isAssignableFrom(raw) ? TreeSet.class : HashSet.class;
        }
        if (Queue.class.isAssignableFrom(raw)) {
            return ArrayDeque.class;
        }
        return raw == Collection.class ? ArrayList.class : raw;
    }

    /** The class Yasson creates for a map type (MapInstanceCreator). */
    private static Class<?> mapClass(Class<?> raw) {
        if (!raw.isInterface()) {
            return raw;
        }
        if (ConcurrentMap.class.isAssignableFrom(raw)) {
            return SortedMap.class.isAssignableFrom(raw) ? ConcurrentSkipListMap.class : ConcurrentHashMap.class;
        }
        return SortedMap.class.isAssignableFrom(raw) ? TreeMap.class : HashMap.class;
    }

    private static Class<?> rawType(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        return null;
    }

    /** The type arguments of a parameterized type, by the type variable each one stands for. */
    private static Map<TypeVariable<?>, Type> typeVariables(Type type, Class<?> raw) {
        if (!(type instanceof ParameterizedType p) || raw == null) {
            return Map.of();
        }
        TypeVariable<?>[] params = raw.getTypeParameters();
        Type[] args = p.getActualTypeArguments();
        Map<TypeVariable<?>, Type> vars = new HashMap<>();
        for (int i = 0; i < params.length && i < args.length; i++) {
            vars.put(params[i], args[i]);
        }
        return vars;
    }

    /** The type with the given type variables replaced by their arguments. */
    private static Type resolve(Type type, Map<TypeVariable<?>, Type> vars) {
        if (type == null || vars.isEmpty()) {
            return type;
        }
        if (type instanceof TypeVariable<?> v) {
            return vars.getOrDefault(v, v);
        }
        if (type instanceof WildcardType w) {
            return resolve(w.getUpperBounds()[0], vars);
        }
        if (type instanceof GenericArrayType g) {
            Type component = resolve(g.getGenericComponentType(), vars);
            return component instanceof Class<?> c
                    ? Array.newInstance(c, 0).getClass()
                    : (GenericArrayType) () -> component;
        }
        if (type instanceof ParameterizedType p) {
            Type[] args = p.getActualTypeArguments().clone();
            for (int i = 0; i < args.length; i++) {
                args[i] = resolve(args[i], vars);
            }
            return new Parameterized((Class<?>) p.getRawType(), List.of(args), p.getOwnerType());
        }
        return type;
    }

    /** A parameterized type built while resolving type variables. */
    private record Parameterized(Class<?> raw, List<Type> args, Type owner) implements ParameterizedType {
        @Override
        public Type[] getActualTypeArguments() {
            return args.toArray(Type[]::new);
        }

        @Override
        public Type getRawType() {
            return raw;
        }

        @Override
        public Type getOwnerType() {
            return owner;
        }

        @Override
        public String getTypeName() {
            return raw.getName() + "<"
                    + String.join(", ", args.stream().map(Type::getTypeName).toList()) + ">";
        }
    }

    /** A type as users write it, without package names. */
    static String typeName(Type type) {
        return type.getTypeName().replaceAll("[\\w$]+\\.", "").replace('$', '.');
    }
}
