package dev.idempotency.internal.core;

import jakarta.json.bind.spi.JsonbProvider;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.Set;
import java.util.TreeMap;

/**
 * The canonical text of a {@link ValueTypes.Kind#JSONB} value written without JSON-B: byte for byte
 * the text {@link CanonicalJson} gets by writing the value with JSON-B, parsing it back and writing it
 * canonically, at a fraction of the cost. Stored records hold that text, so this path is taken only
 * where it is certainly the same, and the JSON-B path stays for everything else:
 *
 * <ul>
 *   <li>decided once per class ({@link #plan}): JSON-B is Yasson; no JSON-B annotation anywhere on
 *       the class, its package, members or interfaces; no superclass; a public record whose components do not look
 *       like bean getters, or a public bean whose private fields each have one public getter of the
 *       field's type named the plain {@code getFoo}/{@code isFoo} way, with no other getter-like
 *       method; every property declared as {@code String}, an integral or boolean primitive or box,
 *       {@code BigInteger}, {@code BigDecimal}, a class with a plan itself, {@code
 *       List}/{@code Collection}/{@code ArrayList} of those or a {@code Map} from {@code String} to
 *       those;
 *   <li>checked per call ({@link #append}): a nested object, {@code BigInteger} or {@code BigDecimal}
 *       of another class than declared, a map key that is not a string, or a getter that throws
 *       makes the caller drop what was written and take the JSON-B path.
 * </ul>
 *
 * <p>As JSON-B writes it: a property whose value is {@code null} is left out, a {@code null} list
 * element or map value is written {@code null}; members sorted by name, numbers without trailing
 * zeros, as {@link CanonicalJson} re-writes them. {@code DirectJsonProperties} holds it to the
 * JSON-B path.
 */
final class DirectJson {

    private DirectJson() {}

    /**
     * Whether the JSON-B implementation here is Yasson, the one the direct text is verified against
     * (resolved once, without building a {@code Jsonb}): under another one, whose number or null
     * handling may differ, every value keeps the JSON-B path and the text it always had.
     */
    private static final class Provider {
        static final boolean YASSON = isYasson();

        private static boolean isYasson() {
            try {
                return JsonbProvider.provider().getClass().getName().startsWith("org.eclipse.yasson.");
            } catch (RuntimeException | ServiceConfigurationError e) {
                return false;
            }
        }
    }

    /** How the value of one declared type is written. */
    private enum Kind {
        STRING,
        INTEGRAL,
        BOOLEAN,
        BIG_INTEGER,
        BIG_DECIMAL,
        OBJECT,
        LIST,
        MAP
    }

    /** The writer of a declared type: its kind, its element's writer, or its class's plan. */
    private record Writer(Kind kind, Writer element, Plan plan, Class<?> type) {}

    /** One JSON-B property: its name, the public getter JSON-B reads, and its writer. */
    private record Property(String name, MethodHandle getter, Writer writer) {}

    /** The properties of a class, sorted by name, as the canonical text orders object members. */
    static final class Plan {
        private final Property[] properties;

        private Plan(Property[] properties) {
            this.properties = properties;
        }
    }

    private static final Writer STRING = new Writer(Kind.STRING, null, null, String.class);
    private static final Writer INTEGRAL = new Writer(Kind.INTEGRAL, null, null, null);
    private static final Writer BOOLEAN = new Writer(Kind.BOOLEAN, null, null, null);
    private static final Writer BIG_INTEGER = new Writer(Kind.BIG_INTEGER, null, null, BigInteger.class);
    private static final Writer BIG_DECIMAL = new Writer(Kind.BIG_DECIMAL, null, null, BigDecimal.class);

    private static final Set<Class<?>> INTEGRALS =
            Set.of(int.class, long.class, short.class, byte.class, Integer.class, Long.class, Short.class, Byte.class);

    private static final Set<Class<?>> LISTS = Set.of(List.class, Collection.class, ArrayList.class);

    private static final Set<Class<?>> MAPS = Set.of(Map.class, HashMap.class, LinkedHashMap.class);

    /**
     * The plan of a class JSON-B writes whole ({@link ValueTypes.Kind#JSONB}, no per-call walk), or
     * {@code null} where its JSON-B text is not certainly the direct one; called once per class while
     * {@link ValueTypes} analyses it, with its fields' analysis already known.
     */
    static Plan plan(Class<?> c, List<ValueTypes.Prop> props) {
        try {
            return planOrNull(c, props);
        } catch (RuntimeException | IllegalAccessException | LinkageError e) {
            // Anything not plainly readable stays on the JSON-B path.
            return null;
        }
    }

    private static Plan planOrNull(Class<?> c, List<ValueTypes.Prop> props) throws IllegalAccessException {
        if (!Provider.YASSON
                || !Modifier.isPublic(c.getModifiers())
                || (c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers()))
                || (c.getSuperclass() != Object.class && c.getSuperclass() != Record.class)
                || c.getFields().length > 0
                || props.isEmpty()
                || mentionsJsonb(c)) {
            return null;
        }
        Set<Method> getters = new HashSet<>();
        List<Property> properties = new ArrayList<>(props.size());
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (ValueTypes.Prop p : props) {
            Field f = p.field();
            if (f.getDeclaringClass() != c || !p.name().equals(f.getName()) || Modifier.isPublic(f.getModifiers())) {
                return null;
            }
            Method getter = c.isRecord() ? recordAccessor(c, f) : beanGetter(c, f);
            if (getter == null || !getter.getGenericReturnType().equals(f.getGenericType())) {
                return null;
            }
            Writer writer = writer(f.getGenericType());
            if (writer == null) {
                return null;
            }
            getter.setAccessible(true);
            MethodHandle handle = lookup.unreflect(getter).asType(MethodType.methodType(Object.class, Object.class));
            getters.add(getter);
            properties.add(new Property(f.getName(), handle, writer));
        }
        if (hasOtherGetterLikeMethod(c, getters)) {
            return null;
        }
        // props come sorted by name (String order), as the canonical text sorts members.
        return new Plan(properties.toArray(new Property[0]));
    }

    /**
     * The accessor of a record component, where JSON-B certainly names its property after the
     * component: a name that reads like a bean getter or setter ({@code isbn}, {@code getter}) is left
     * to JSON-B, as JSON-B versions differ on such names.
     */
    private static Method recordAccessor(Class<?> c, Field f) throws IllegalAccessException {
        String n = f.getName();
        if (n.startsWith("get") || n.startsWith("is") || n.startsWith("set")) {
            return null;
        }
        for (RecordComponent rc : c.getRecordComponents()) {
            if (rc.getName().equals(n)) {
                Method m = rc.getAccessor();
                return Modifier.isPublic(m.getModifiers()) ? m : null;
            }
        }
        return null;
    }

    /**
     * The one public getter of a bean field whose property name is the field name under every JSON-B
     * naming ({@code foo} with {@code getFoo}, or {@code isFoo} for a primitive {@code boolean}): a
     * field name starting {@code aB...} is decapitalised differently by the JavaBeans rules, so it is
     * left to JSON-B, as is a field with both {@code getFoo} and {@code isFoo}.
     */
    private static Method beanGetter(Class<?> c, Field f) {
        String n = f.getName();
        if (n.isEmpty()
                || n.charAt(0) < 'a'
                || n.charAt(0) > 'z'
                || (n.length() > 1 && !Character.isLowerCase(n.charAt(1)) && !Character.isDigit(n.charAt(1)))) {
            return null;
        }
        for (int i = 0; i < n.length(); i++) {
            char ch = n.charAt(i);
            if (ch > 0x7f || !Character.isLetterOrDigit(ch)) {
                return null;
            }
        }
        String cap = Character.toUpperCase(n.charAt(0)) + n.substring(1);
        Method get = publicNoArg(c, "get" + cap);
        Method is = publicNoArg(c, "is" + cap);
        if (get != null && is != null) {
            return null;
        }
        if (is != null) {
            return f.getType() == boolean.class ? is : null;
        }
        return get;
    }

    private static Method publicNoArg(Class<?> c, String name) {
        try {
            Method m = c.getMethod(name);
            return !Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() == c ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * Whether the class has a method JSON-B may read as a property besides the chosen getters: any
     * method named {@code get...} or {@code is...} (declared, or public and inherited), whatever its
     * parameters, as JSON-B would write a computed {@code getTotal()} too.
     */
    private static boolean hasOtherGetterLikeMethod(Class<?> c, Set<Method> getters) {
        List<Method> methods = new ArrayList<>(List.of(c.getDeclaredMethods()));
        methods.addAll(List.of(c.getMethods()));
        for (Method m : methods) {
            if (m.getDeclaringClass() == Object.class || m.getDeclaringClass() == Record.class) {
                continue;
            }
            String n = m.getName();
            if ((n.startsWith("get") || n.startsWith("is")) && !getters.contains(m)) {
                return true;
            }
            if (getters.contains(m) && (m.isBridge() || m.isSynthetic())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a JSON-B annotation (or a {@code javax} one) sits on the class, its package, its fields,
     * methods, constructors, parameters, record components, or interfaces: any of them may change a
     * name, a format, or what is written.
     */
    private static boolean mentionsJsonb(Class<?> c) {
        if (hasJsonbAnnotation(c) || (c.getPackage() != null && hasJsonbAnnotation(c.getPackage()))) {
            return true;
        }
        for (Field f : c.getDeclaredFields()) {
            if (hasJsonbAnnotation(f)) {
                return true;
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (hasJsonbAnnotation(m) || anyParameterAnnotated(m.getParameterAnnotations())) {
                return true;
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (hasJsonbAnnotation(k) || anyParameterAnnotated(k.getParameterAnnotations())) {
                return true;
            }
        }
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                if (hasJsonbAnnotation(rc)) {
                    return true;
                }
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            if (mentionsJsonb(i)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyParameterAnnotated(Annotation[][] parameters) {
        for (Annotation[] annotations : parameters) {
            for (Annotation a : annotations) {
                if (isJsonb(a)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasJsonbAnnotation(AnnotatedElement e) {
        for (Annotation a : e.getAnnotations()) {
            if (isJsonb(a)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJsonb(Annotation a) {
        String n = a.annotationType().getName();
        return n.startsWith("jakarta.json.bind.") || n.startsWith("javax.json.bind.");
    }

    /** The writer of a declared type, {@code null} where its JSON-B text is not verified the same. */
    private static Writer writer(Type t) {
        if (t == String.class) {
            return STRING;
        }
        if (t instanceof Class<?> k && INTEGRALS.contains(k)) {
            return INTEGRAL;
        }
        if (t == boolean.class || t == Boolean.class) {
            return BOOLEAN;
        }
        if (t == BigInteger.class) {
            return BIG_INTEGER;
        }
        if (t == BigDecimal.class) {
            return BIG_DECIMAL;
        }
        if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            if (LISTS.contains(raw) && args.length == 1) {
                Writer element = writer(args[0]);
                return element == null ? null : new Writer(Kind.LIST, element, null, null);
            }
            if (MAPS.contains(raw) && args.length == 2 && args[0] == String.class) {
                Writer value = writer(args[1]);
                return value == null ? null : new Writer(Kind.MAP, value, null, null);
            }
            return null;
        }
        if (t instanceof Class<?> k && !k.isPrimitive() && !k.isArray() && !ValueTypes.isValue(k)) {
            ValueTypes.Shape s = ValueTypes.shape(k);
            if (s.kind() == ValueTypes.Kind.JSONB && !s.walk() && s.direct() != null) {
                return new Writer(Kind.OBJECT, null, s.direct(), k);
            }
        }
        return null;
    }

    /**
     * Appends the canonical text of a value of the plan's class; {@code false} where a value met on the
     * way is not as planned, and the caller must drop what was appended and use the JSON-B path.
     */
    static boolean append(StringBuilder sb, Object v, Plan plan) {
        sb.append('{');
        boolean first = true;
        for (Property p : plan.properties) {
            Object x;
            try {
                x = (Object) p.getter.invokeExact(v);
            } catch (Throwable t) {
                // JSON-B reports it its own way.
                return false;
            }
            if (x == null) {
                // JSON-B leaves a null property out.
                continue;
            }
            if (!first) {
                sb.append(',');
            }
            first = false;
            CanonicalJson.appendString(sb, p.name);
            sb.append(':');
            if (!appendValue(sb, x, p.writer)) {
                return false;
            }
        }
        sb.append('}');
        return true;
    }

    private static boolean appendValue(StringBuilder sb, Object x, Writer w) {
        if (x == null) {
            // In a list or a map, JSON-B writes null.
            sb.append("null");
            return true;
        }
        switch (w.kind) {
            case STRING -> {
                if (!(x instanceof String s)) {
                    return false;
                }
                CanonicalJson.appendString(sb, s);
            }
            case INTEGRAL -> {
                if (!(x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte)) {
                    return false;
                }
                sb.append(((Number) x).longValue());
            }
            case BOOLEAN -> {
                if (!(x instanceof Boolean b)) {
                    return false;
                }
                sb.append(b.booleanValue());
            }
            case BIG_INTEGER -> {
                if (x.getClass() != BigInteger.class) {
                    return false;
                }
                sb.append(x);
            }
            case BIG_DECIMAL -> {
                if (x.getClass() != BigDecimal.class) {
                    return false;
                }
                CanonicalJson.appendNumber(sb, (BigDecimal) x);
            }
            case OBJECT -> {
                if (x.getClass() != w.type) {
                    return false;
                }
                return append(sb, x, w.plan);
            }
            case LIST -> {
                if (!(x instanceof Collection<?> c)) {
                    return false;
                }
                sb.append('[');
                boolean first = true;
                for (Object e : c) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    if (!appendValue(sb, e, w.element)) {
                        return false;
                    }
                }
                sb.append(']');
            }
            case MAP -> {
                if (!(x instanceof Map<?, ?> m)) {
                    return false;
                }
                TreeMap<String, Object> sorted = new TreeMap<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getKey() instanceof String k)) {
                        return false;
                    }
                    sorted.put(k, e.getValue());
                }
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Object> e : sorted.entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    CanonicalJson.appendString(sb, e.getKey());
                    sb.append(':');
                    if (!appendValue(sb, e.getValue(), w.element)) {
                        return false;
                    }
                }
                sb.append('}');
            }
        }
        return true;
    }
}
