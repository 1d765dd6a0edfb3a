package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.json.JsonValue;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneId;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collection;
import java.util.Comparator;
import java.util.Currency;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;

/**
 * How the state of a value is read for keys and fingerprints, decided once per class (a {@link
 * ClassValue}) and checked per declared type when a method is planned:
 *
 * <ol>
 *   <li>JDK values (strings, numbers, booleans, characters, enums, UUIDs, {@code java.time}, the JDK
 *       types JSON-B writes as one value such as {@code URI} or {@code Date}) and containers
 *       (collections, maps, arrays, {@code Optional}, JSON-P values) are written by {@link
 *       CanonicalJson} directly.
 *   <li>A record or bean whose every instance field JSON-B writes (a public field, or a public getter,
 *       without {@code @JsonbTransient}), with field types of that kind too, is written through JSON-B,
 *       exactly as before this analysis existed, so that stored records still match.
 *   <li>Any other class is written by its fields: every non-static, non-{@code transient} field of the
 *       class and its superclasses, private ones included, members sorted by name. A value whose class
 *       is not the declared one (an interface-typed field) carries its class name as {@code "@class"}.
 *   <li>Anything else is refused: a JDK class that is not a value, a class without instance state,
 *       container proxies, lambdas and synthetic classes, and (at call time) a cycle between instances.
 * </ol>
 */
final class ValueTypes {

    /** The member that names a value's class where its declared type does not. */
    static final String CLASS_TAG = "@class";

    private static final String FIX = "make it a record or a class whose state is in its fields, put @IdempotencyKey"
            + " on the fields that identify the call, or move non-data parameters out of the guarded method";

    private ValueTypes() {}

    /** How a class's instances are written. */
    enum Kind {
        /** A JDK value or container: {@link CanonicalJson} writes it directly. */
        VALUE,
        /** Through JSON-B, which writes all of its state. */
        JSONB,
        /** By its fields. */
        FIELDS,
        /** Not declared concretely (an interface, an abstract class): decided per runtime class. */
        OPEN,
        /** Its state cannot be read faithfully. */
        REFUSED
    }

    /** One instance field, with its getter typed {@code (Object)Object}. */
    record Prop(String name, Field field, MethodHandle getter, Type type) {
        Object get(Object target) {
            try {
                return (Object) getter.invokeExact(target);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("reading " + field, t);
            }
        }
    }

    /**
     * The plan of a class.
     *
     * @param kind how its instances are written
     * @param props its instance fields, sorted by name (user classes only)
     * @param walk for {@link Kind#JSONB}: whether a nested value may be of another class than declared
     *     (or the type is recursive), so each call checks it before trusting JSON-B
     * @param refusal why its state cannot be read, for {@link Kind#REFUSED}
     * @param direct for {@link Kind#JSONB} without a walk: how {@link DirectJson} writes it without
     *     JSON-B, the same text; {@code null} where that is not certain, and JSON-B writes it
     */
    record Shape(Kind kind, List<Prop> props, boolean walk, String refusal, DirectJson.Plan direct) {}

    private static final Shape VALUE = new Shape(Kind.VALUE, List.of(), false, null, null);
    private static final Shape OPEN = new Shape(Kind.OPEN, List.of(), false, null, null);

    private static final Set<Class<?>> SCALARS = Set.of(
            String.class,
            Character.class,
            Boolean.class,
            Byte.class,
            Short.class,
            Integer.class,
            Long.class,
            Float.class,
            Double.class,
            BigDecimal.class,
            BigInteger.class,
            UUID.class,
            URI.class,
            URL.class,
            Duration.class,
            Period.class,
            OptionalInt.class,
            OptionalLong.class,
            OptionalDouble.class,
            Locale.class,
            Currency.class);

    /** Values of these classes are assignable to a JDK interface or abstract class that may hold data. */
    private static final List<Class<?>> DATA_WITNESSES = List.of(
            String.class,
            Integer.class,
            BigDecimal.class,
            UUID.class,
            Instant.class,
            LocalDate.class,
            ArrayList.class,
            HashSet.class,
            HashMap.class,
            Optional.class,
            Thread.State.class);

    /** Shapes being analysed on this thread: a type that reaches itself is recursive. */
    private static final ThreadLocal<Set<Class<?>>> ANALYSING = ThreadLocal.withInitial(HashSet::new);

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return analyse(type);
        }
    };

    /** The plan of a class, computed once. */
    static Shape shape(Class<?> type) {
        return SHAPES.get(type);
    }

    /** Whether a class is a JDK value CanonicalJson writes as one JSON value or as a container. */
    static boolean isValue(Class<?> c) {
        return c.isPrimitive()
                || SCALARS.contains(c)
                || c.isEnum()
                || (c.getSuperclass() != null && c.getSuperclass().isEnum())
                || TemporalAccessor.class.isAssignableFrom(c) && isJdk(c)
                || ZoneId.class.isAssignableFrom(c)
                || Date.class.isAssignableFrom(c) && isJdk(c)
                || Calendar.class.isAssignableFrom(c) && isJdk(c)
                || TimeZone.class.isAssignableFrom(c) && isJdk(c)
                || CharSequence.class.isAssignableFrom(c) && isJdk(c)
                || Optional.class == c
                || Map.class.isAssignableFrom(c)
                || Collection.class.isAssignableFrom(c)
                || c.isArray()
                || JsonValue.class.isAssignableFrom(c);
    }

    private static boolean isJdk(Class<?> c) {
        String n = c.getName();
        return n.startsWith("java.")
                || n.startsWith("javax.")
                || n.startsWith("jdk.")
                || n.startsWith("sun.")
                || n.startsWith("com.sun.")
                || n.startsWith("jakarta.");
    }

    private static Shape refused(String why) {
        return new Shape(Kind.REFUSED, List.of(), false, why, null);
    }

    private static Shape analyse(Class<?> c) {
        if (isValue(c)) {
            return VALUE;
        }
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            if (isJdk(c) && !holdsData(c)) {
                return refused(c.getName() + " is a container or JDK type, not a value");
            }
            return OPEN;
        }
        if (c == Object.class) {
            return refused("java.lang.Object has no state (its text would be its identity)");
        }
        if (isJdk(c)) {
            return refused(c.getName() + " is a JDK or container type that is not a value");
        }
        if (isLazyProxy(c)) {
            return refused(c.getName() + " is a lazy proxy of the entity "
                    + c.getSuperclass().getName()
                    + ": its fields are not loaded, and the key reader does not load them; pass a loaded"
                    + " entity (find, or a fetch join) or its id");
        }
        if (c.isSynthetic()
                || c.isHidden()
                || Proxy.isProxyClass(c)
                || c.getName().contains("$$")) {
            return refused(c.getName() + " is a proxy, lambda or generated class, whose state is not its own");
        }
        if ((c.isAnonymousClass() || c.isLocalClass()) && capturesVariables(c)) {
            return refused(c.getName() + " is an anonymous or local class whose captured variables are not readable");
        }
        Set<Class<?>> analysing = ANALYSING.get();
        if (!analysing.add(c)) {
            // Callers look a type up only when it is not being analysed: a recursive type is decided
            // by the outer analysis, and the per-call walk refuses a cycle between instances.
            throw new IllegalStateException("recursive analysis of " + c.getName());
        }
        try {
            return analyseClass(c);
        } finally {
            analysing.remove(c);
            if (analysing.isEmpty()) {
                ANALYSING.remove();
            }
        }
    }

    /**
     * Whether a field is part of its object's state: an instance field, not {@code transient}, not
     * synthetic; in a JPA entity, embeddable or mapped superclass also not a field the JPA provider
     * adds (EclipseLink's weaving: {@code _persistence_*}; Hibernate's enhancement: {@code
     * $$_hibernate_*}), not {@code @Transient}, and not an association ({@code @OneToMany}, {@code
     * @ManyToMany}, {@code @ManyToOne}, {@code @OneToOne}, {@code @ElementCollection}), which would have
     * to be loaded to be read: an entity is read by its own columns.
     */
    static boolean isState(Field f) {
        int mod = f.getModifiers();
        if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()) {
            return false;
        }
        if (!isPersistent(f.getDeclaringClass())) {
            return true;
        }
        String n = f.getName();
        if (n.startsWith("_persistence_") || n.startsWith("$$_hibernate_")) {
            return false;
        }
        if (hasJpaMapping(f.getAnnotations())) {
            return false;
        }
        Method getter = propertyGetter(f);
        return getter == null || !hasJpaMapping(getter.getAnnotations());
    }

    private static final Set<String> PERSISTENT = Set.of(
            "jakarta.persistence.Entity", "jakarta.persistence.Embeddable", "jakarta.persistence.MappedSuperclass");

    private static final Set<String> NOT_COLUMNS = Set.of(
            "jakarta.persistence.Transient",
            "jakarta.persistence.OneToMany",
            "jakarta.persistence.ManyToMany",
            "jakarta.persistence.ManyToOne",
            "jakarta.persistence.OneToOne",
            "jakarta.persistence.ElementCollection");

    /** Whether JPA maps this class itself (read by name, so that a deployment without JPA links). */
    static boolean isPersistent(Class<?> c) {
        for (Annotation a : c.getDeclaredAnnotations()) {
            if (PERSISTENT.contains(a.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasJpaMapping(Annotation[] annotations) {
        for (Annotation a : annotations) {
            if (NOT_COLUMNS.contains(a.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    /** The getter of a field in its own class, any visibility (JPA property access annotates it). */
    private static Method propertyGetter(Field f) {
        String n = f.getName();
        String cap = Character.toUpperCase(n.charAt(0)) + n.substring(1);
        for (String candidate : List.of("get" + cap, "is" + cap)) {
            try {
                return f.getDeclaringClass().getDeclaredMethod(candidate);
            } catch (NoSuchMethodException e) {
                // try the next name
            }
        }
        return null;
    }

    /**
     * The getter of EclipseLink's woven {@code _persistence_fetchGroup} of an entity class (typed
     * {@code (Object)Object}), or {@code null}: an entity whose fetch group is set was loaded in part
     * (a reference from {@code getReference}, a partial query), and its other fields are empty.
     */
    private static final ClassValue<MethodHandle> FETCH_GROUPS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
                if (!isPersistent(k)) {
                    continue;
                }
                try {
                    Field f = k.getDeclaredField("_persistence_fetchGroup");
                    f.setAccessible(true);
                    return MethodHandles.lookup()
                            .unreflectGetter(f)
                            .asType(MethodType.methodType(Object.class, Object.class));
                } catch (NoSuchFieldException e) {
                    // not woven with fetch groups: look further up
                } catch (RuntimeException | IllegalAccessException e) {
                    return null;
                }
            }
            return null;
        }
    };

    /**
     * Refuses an entity loaded in part (EclipseLink: its fetch group is set), before the call runs:
     * its unloaded fields would read empty, and the key reader does not load them.
     */
    static void requireLoaded(Object v) {
        MethodHandle fetchGroup = FETCH_GROUPS.get(v.getClass());
        if (fetchGroup == null) {
            return;
        }
        Object group;
        try {
            group = (Object) fetchGroup.invokeExact(v);
        } catch (Throwable t) {
            return;
        }
        if (group != null) {
            throw refusedAtCall(
                    v.getClass(),
                    "this entity is loaded in part (a reference from getReference, or a fetch group), so its other"
                            + " fields are empty, and the key reader does not load them; pass a loaded entity"
                            + " (find, or a fetch join) or its id");
        }
    }

    /** Whether a class is a Hibernate lazy proxy (read by name): its fields are empty until loaded. */
    private static boolean isLazyProxy(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                if (i.getName().equals("org.hibernate.proxy.HibernateProxy")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether javac put captured local variables into synthetic fields ({@code val$name}) of the class. */
    private static boolean capturesVariables(Class<?> c) {
        for (Field f : c.getDeclaredFields()) {
            if (f.isSynthetic()
                    && !Modifier.isStatic(f.getModifiers())
                    && f.getName().startsWith("val$")) {
                return true;
            }
        }
        return false;
    }

    /** A JDK interface or abstract class that a value (a string, a number, a collection...) may implement. */
    private static boolean holdsData(Class<?> c) {
        for (Class<?> w : DATA_WITNESSES) {
            if (c.isAssignableFrom(w)) {
                return true;
            }
        }
        return false;
    }

    private static Shape analyseClass(Class<?> c) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class && k != Record.class; k = k.getSuperclass()) {
            if (isJdk(k)) {
                return refused(c.getName() + " extends the JDK class " + k.getName() + ", whose state is not readable");
            }
            for (Field f : k.getDeclaredFields()) {
                if (isState(f)) {
                    fields.add(f);
                }
            }
        }
        if (fields.isEmpty()) {
            return refused(c.getName() + " has no instance fields, so no state to tell two values apart");
        }
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Set<String> names = new HashSet<>();
        List<Prop> props = new ArrayList<>(fields.size());
        // An entity is read by its fields: JSON-B would call the getters of its associations, and load them.
        boolean jsonb = !hasJsonbCustomisation(c.getAnnotations()) && !isPersistent(c);
        boolean walk = false;
        for (Field f : fields) {
            // A field a subclass hides is named after its class, so both are written.
            String name =
                    names.add(f.getName()) ? f.getName() : f.getDeclaringClass().getName() + "." + f.getName();
            MethodHandle getter;
            try {
                f.setAccessible(true);
                // Typed (Object)Object once, so that each read is an exact invocation.
                getter = lookup.unreflectGetter(f).asType(MethodType.methodType(Object.class, Object.class));
            } catch (RuntimeException | IllegalAccessException e) {
                return refused("the field " + f.getDeclaringClass().getName() + "." + f.getName() + " cannot be read ("
                        + e.getMessage() + "); open its package to this module");
            }
            props.add(new Prop(name, f, getter, f.getGenericType()));
            String problem = declaredProblem(f.getGenericType());
            if (problem != null) {
                return refused("its field " + f.getDeclaringClass().getName() + "." + f.getName() + ": " + problem);
            }
            if (jsonb) {
                Faithful how = jsonbFaithful(f.getGenericType());
                jsonb = how != Faithful.NO && jsonbWrites(f);
                walk |= how == Faithful.IF_CLASSES_MATCH;
            }
        }
        props.sort(Comparator.comparing(Prop::name));
        List<Prop> sorted = List.copyOf(props);
        if (!jsonb) {
            return new Shape(Kind.FIELDS, sorted, walk, null, null);
        }
        return new Shape(Kind.JSONB, sorted, walk, null, walk ? null : DirectJson.plan(c, sorted));
    }

    private enum Faithful {
        YES,
        NO,
        /** When each nested value is of its declared class (checked per call). */
        IF_CLASSES_MATCH
    }

    /** Whether default JSON-B writes every piece of state of a value declared with this type. */
    private static Faithful jsonbFaithful(Type t) {
        Class<?> raw = raw(t);
        if (raw == null) {
            return Faithful.NO;
        }
        if (raw.isArray()) {
            Type component = t instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
            return raw.getComponentType().isPrimitive() ? Faithful.YES : jsonbFaithful(component);
        }
        if (Set.class.isAssignableFrom(raw)) {
            // JSON-B writes a set in its iteration order; the canonical form sorts it.
            return Faithful.NO;
        }
        if (Collection.class.isAssignableFrom(raw) || raw == Optional.class) {
            return jsonbFaithful(typeArgument(t, 0));
        }
        if (Map.class.isAssignableFrom(raw)) {
            return typeArgument(t, 0) == String.class ? jsonbFaithful(typeArgument(t, 1)) : Faithful.NO;
        }
        if (JsonValue.class.isAssignableFrom(raw)) {
            return Faithful.YES;
        }
        if (raw == Locale.class || raw == Currency.class) {
            // JSON-B writes their getters, display names in the JVM's default locale among them.
            return Faithful.NO;
        }
        if (isValue(raw)) {
            // A declared Number or Temporal may hold a class JSON-B writes differently; primitives
            // report themselves abstract, so they are named first.
            return raw.isPrimitive() || !raw.isInterface() && !Modifier.isAbstract(raw.getModifiers())
                    ? Faithful.YES
                    : Faithful.NO;
        }
        if (ANALYSING.get().contains(raw)) {
            return Faithful.IF_CLASSES_MATCH;
        }
        Shape s = shape(raw);
        if (s.kind() != Kind.JSONB) {
            return Faithful.NO;
        }
        return s.walk() || !Modifier.isFinal(raw.getModifiers()) ? Faithful.IF_CLASSES_MATCH : Faithful.YES;
    }

    /** Whether default JSON-B writes this field: public, or with a public getter, not hidden from it. */
    private static boolean jsonbWrites(Field f) {
        if (hasJsonbCustomisation(f.getAnnotations()) || isJsonbTransient(f.getAnnotations())) {
            return false;
        }
        if (Modifier.isPublic(f.getModifiers())) {
            return true;
        }
        Method getter = getter(f);
        return getter != null
                && !isJsonbTransient(getter.getAnnotations())
                && !hasJsonbCustomisation(getter.getAnnotations());
    }

    /** The public getter JSON-B reads a field through: the record accessor, {@code getX} or {@code isX}. */
    private static Method getter(Field f) {
        Class<?> c = f.getDeclaringClass();
        String n = f.getName();
        List<String> candidates = new ArrayList<>(3);
        if (c.isRecord()) {
            candidates.add(n);
        }
        String cap = Character.toUpperCase(n.charAt(0)) + n.substring(1);
        candidates.add("get" + cap);
        if (f.getType() == boolean.class || f.getType() == Boolean.class) {
            candidates.add("is" + cap);
        }
        for (String candidate : candidates) {
            try {
                Method m = c.getMethod(candidate);
                if (!Modifier.isStatic(m.getModifiers())
                        && Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
                    return m;
                }
            } catch (NoSuchMethodException e) {
                // try the next name
            }
        }
        return null;
    }

    private static boolean isJsonbTransient(Annotation[] annotations) {
        for (Annotation a : annotations) {
            if (a.annotationType().getName().equals("jakarta.json.bind.annotation.JsonbTransient")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether JSON-B is told to write a value its own way (a serializer, an adapter, a number or date
     * format, a visibility strategy): its text may then hide state, so the value is written by fields.
     */
    private static boolean hasJsonbCustomisation(Annotation[] annotations) {
        for (Annotation a : annotations) {
            String n = a.annotationType().getName();
            if (n.startsWith("jakarta.json.bind.annotation.")
                    && !n.endsWith(".JsonbProperty")
                    && !n.endsWith(".JsonbCreator")
                    && !n.endsWith(".JsonbPropertyOrder")
                    && !n.endsWith(".JsonbNillable")
                    && !n.endsWith(".JsonbTransient")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a value declared with this type cannot be read faithfully, known from the type alone; {@code
     * null} when it can, or when only the runtime classes of its values can tell.
     */
    static String declaredProblem(Type t) {
        Class<?> raw = raw(t);
        if (raw == null || raw.isPrimitive()) {
            return null;
        }
        if (raw.isArray()) {
            return declaredProblem(
                    t instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType());
        }
        if (Collection.class.isAssignableFrom(raw) || raw == Optional.class) {
            return declaredProblem(typeArgument(t, 0));
        }
        if (Map.class.isAssignableFrom(raw)) {
            String key = declaredProblem(typeArgument(t, 0));
            return key != null ? key : declaredProblem(typeArgument(t, 1));
        }
        if (raw == Object.class) {
            // Any value may be passed: its runtime class decides.
            return null;
        }
        if (ANALYSING.get().contains(raw)) {
            return null;
        }
        Shape s = shape(raw);
        return s.kind() == Kind.REFUSED ? s.refusal() : null;
    }

    /**
     * Why a method's parameter cannot be part of a key or fingerprint, for the deployment error; {@code
     * null} when it can.
     */
    static String parameterProblem(Method method, int index) {
        String problem = declaredProblem(method.getGenericParameterTypes()[index]);
        if (problem == null) {
            return null;
        }
        return "@Idempotent on " + PolicyResolver.describe(method) + " cannot read "
                + PolicyResolver.describeParameter(method, index) + " of type "
                + method.getGenericParameterTypes()[index].getTypeName()
                + " for its key or fingerprint: " + problem + ". Fix: " + FIX + ".";
    }

    /**
     * Whether an enum constant declared as a user interface (or abstract class) it implements needs
     * its enum's name: two enums may have constants of the same name.
     */
    static boolean enumNeedsClass(Enum<?> e, Type declared) {
        if (declared == e.getDeclaringClass() || declared == e.getClass()) {
            return false;
        }
        Class<?> raw = raw(declared);
        return raw != null && raw != e.getDeclaringClass() && !isJdk(raw);
    }

    /** The refusal of a value met at call time whose class cannot be read. */
    static IdempotencyConfigurationException refusedAtCall(Class<?> type, String why) {
        return new IdempotencyConfigurationException("A key or fingerprint argument of type " + type.getName()
                + " cannot be read faithfully, so the call did not run: " + why + ". Fix: " + FIX + ".");
    }

    /**
     * What default JSON-B would not write of a value of this type: one entry per class and field that
     * it leaves out, so that a stored value would come back without it. Interfaces, abstract classes
     * and JDK types are not followed.
     */
    static List<String> jsonbMisses(Type type) {
        List<String> misses = new ArrayList<>();
        collectMisses(type, new HashSet<>(), misses);
        return misses;
    }

    private static void collectMisses(Type t, Set<Class<?>> seen, List<String> misses) {
        Class<?> raw = raw(t);
        if (raw == null || raw.isPrimitive()) {
            return;
        }
        if (t instanceof ParameterizedType p) {
            for (Type arg : p.getActualTypeArguments()) {
                collectMisses(arg, seen, misses);
            }
        }
        if (raw.isArray()) {
            collectMisses(
                    t instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType(),
                    seen,
                    misses);
            return;
        }
        if (isValue(raw)
                || isJdk(raw)
                || raw.isInterface()
                || Modifier.isAbstract(raw.getModifiers())
                || !seen.add(raw)
                || hasCustomVisibility(raw)) {
            return;
        }
        for (Class<?> k = raw; k != null && k != Object.class && k != Record.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (!isState(f)) {
                    continue;
                }
                if (isJsonbTransient(f.getAnnotations())) {
                    continue;
                }
                if (!Modifier.isPublic(mod) && getter(f) == null && !isJsonbNamed(f)) {
                    misses.add(k.getName() + "." + f.getName());
                } else {
                    collectMisses(f.getGenericType(), seen, misses);
                }
            }
        }
    }

    private static boolean hasCustomVisibility(Class<?> c) {
        for (Annotation a : c.getAnnotations()) {
            String n = a.annotationType().getName();
            if (n.equals("jakarta.json.bind.annotation.JsonbVisibility")
                    || n.equals("jakarta.json.bind.annotation.JsonbTypeSerializer")
                    || n.equals("jakarta.json.bind.annotation.JsonbTypeAdapter")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJsonbNamed(Field f) {
        for (Annotation a : f.getAnnotations()) {
            if (a.annotationType().getName().equals("jakarta.json.bind.annotation.JsonbProperty")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Fails planning of a method whose stored values would lose state: the return type (or {@code T} of
     * its stage) has fields JSON-B does not write, so a repeat would get them empty.
     *
     * @throws IdempotencyConfigurationException naming the method, the type, the fields and the fix
     */
    static void requireWholeValues(Method method, Type valueType) {
        if (servedOverHttp(method)) {
            // A resource's response is stored as HTTP bytes, not through JSON-B.
            return;
        }
        List<String> misses = jsonbMisses(valueType);
        if (!misses.isEmpty()) {
            throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                    + " returns " + valueType.getTypeName() + ", whose state JSON-B does not write: "
                    + String.join(", ", misses) + ". A repeat would get these fields empty. Fix: give each a"
                    + " public getter or make it public, annotate it @JsonbProperty with a public getter,"
                    + " or make the type a record.");
        }
    }

    /**
     * Whether JAX-RS serves this method (it or a method it overrides carries an annotation marked
     * {@code @HttpMethod}): its arguments and response are guarded over HTTP, not by this analysis.
     * Read by name, so that a deployment without JAX-RS links.
     */
    static boolean servedOverHttp(Method method) {
        List<Class<?>> types = new ArrayList<>();
        types.add(method.getDeclaringClass());
        for (int i = 0; i < types.size(); i++) {
            Class<?> c = types.get(i);
            try {
                Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
                for (Annotation a : m.getAnnotations()) {
                    for (Annotation meta : a.annotationType().getAnnotations()) {
                        if (meta.annotationType().getName().equals("jakarta.ws.rs.HttpMethod")) {
                            return true;
                        }
                    }
                }
            } catch (NoSuchMethodException e) {
                // not declared here
            }
            if (c.getSuperclass() != null && c.getSuperclass() != Object.class) {
                types.add(c.getSuperclass());
            }
            types.addAll(List.of(c.getInterfaces()));
        }
        return false;
    }

    /** The class of a declared type; {@code null} for a type variable or wildcard without a bound. */
    static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (t instanceof GenericArrayType g) {
            Class<?> component = raw(g.getGenericComponentType());
            return component == null ? Object[].class : component.arrayType();
        }
        if (t instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        if (t instanceof TypeVariable<?> v) {
            return raw(v.getBounds()[0]);
        }
        return null;
    }

    /** The declared type argument of a container type, {@code Object} where it is not declared. */
    static Type typeArgument(Type t, int index) {
        if (t instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
            Type arg = p.getActualTypeArguments()[index];
            return arg instanceof WildcardType w ? w.getUpperBounds()[0] : arg;
        }
        return Object.class;
    }

    /** The declared element type of a container (or array) type. */
    static Type elementType(Type t) {
        Class<?> raw = raw(t);
        if (raw != null && raw.isArray()) {
            return t instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
        }
        return raw != null && Map.class.isAssignableFrom(raw) ? typeArgument(t, 1) : typeArgument(t, 0);
    }

    /** Tracks the instances on the current path of a value, to refuse a cycle instead of looping. */
    static final class Path {
        private final IdentityHashMap<Object, Boolean> on = new IdentityHashMap<>();

        void enter(Object o) {
            if (on.put(o, Boolean.TRUE) != null) {
                throw refusedAtCall(o.getClass(), "the value refers back to itself (a cycle between instances)");
            }
        }

        void leave(Object o) {
            on.remove(o);
        }
    }
}
