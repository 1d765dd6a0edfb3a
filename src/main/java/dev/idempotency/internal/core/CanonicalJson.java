package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A canonical JSON text of any value, so that equal values give equal text on every JVM: object
 * members sorted by name (map and field order do not matter), set elements sorted, numbers written
 * as their exact decimal value without trailing zeros ({@code 1}, {@code 1.0} and {@code 1.00} are
 * the same number), strings escaped one way only.
 *
 * <p>Strings, numbers, booleans, characters, enums, UUIDs and {@code java.time} values are written
 * directly; maps, collections and arrays element by element; any other object as {@link ValueTypes}
 * decided for its class: through JSON-B and then canonicalised where JSON-B writes all of its state,
 * else by its fields. Lists and arrays keep their order: order is part of their value.
 */
final class CanonicalJson {

    /**
     * Resolved once: every static {@code Json.createX} call looks the provider up through the
     * ServiceLoader again, which costs more than the rest of a guarded call.
     */
    static final JsonProvider JSON = JsonProvider.provider();

    private static volatile Jsonb jsonb;

    private CanonicalJson() {}

    /** The shared JSON-B instance, created on first use (it is thread-safe and costly to build). */
    public static Jsonb jsonb() {
        Jsonb j = jsonb;
        if (j == null) {
            synchronized (CanonicalJson.class) {
                j = jsonb;
                if (j == null) {
                    j = JsonbBuilder.create();
                    jsonb = j;
                }
            }
        }
        return j;
    }

    /** The canonical JSON text of a value, read as a value of its own class. */
    public static String of(Object value) {
        return of(value, value == null ? Object.class : value.getClass());
    }

    /**
     * The canonical JSON text of a value declared with a type: where the value is not of that type's
     * class (an interface-typed parameter), its class is part of the text.
     */
    static String of(Object value, Type declared) {
        StringBuilder sb = new StringBuilder(64);
        append(sb, value, declared, null);
        return sb.toString();
    }

    /**
     * How {@link #ofArguments} writes one argument, chosen once from the parameter's declared type:
     * a final type whose text is known skips the search through {@link #append}'s cases.
     */
    static final class ArgumentWriter {
        /** {@code String}. */
        static final ArgumentWriter STRING = new ArgumentWriter(String.class);
        /** {@code long}, {@code int}, {@code short}, {@code byte} and their boxes. */
        static final ArgumentWriter INTEGRAL = new ArgumentWriter(long.class);
        /** {@code boolean} and {@code Boolean}. */
        static final ArgumentWriter BOOLEAN = new ArgumentWriter(boolean.class);
        /** A parameter declared {@code Object}: {@link #append}. */
        static final ArgumentWriter ANY = new ArgumentWriter(Object.class);

        /** The declared type, which {@link #append} follows into containers and fields. */
        private final Type declared;

        private ArgumentWriter(Type declared) {
            this.declared = declared;
        }

        /** The writer of a parameter declared with this type. */
        static ArgumentWriter of(Type type) {
            if (type == String.class) {
                return STRING;
            }
            if (type == long.class
                    || type == int.class
                    || type == short.class
                    || type == byte.class
                    || type == Long.class
                    || type == Integer.class
                    || type == Short.class
                    || type == Byte.class) {
                return INTEGRAL;
            }
            if (type == boolean.class || type == Boolean.class) {
                return BOOLEAN;
            }
            return type == Object.class ? ANY : new ArgumentWriter(type);
        }

        /** Whether this writer goes through {@link #append}. */
        boolean general() {
            return this != STRING && this != INTEGRAL && this != BOOLEAN;
        }

        @Override
        public String toString() {
            return this == STRING ? "STRING" : this == INTEGRAL ? "INTEGRAL" : this == BOOLEAN ? "BOOLEAN" : "ANY";
        }
    }

    /** The writers of parameters declared with these classes, for {@link #ofArguments}. */
    static ArgumentWriter[] writers(Class<?>[] parameterTypes) {
        ArgumentWriter[] writers = new ArgumentWriter[parameterTypes.length];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = ArgumentWriter.of(parameterTypes[i]);
        }
        return writers;
    }

    /**
     * The writers of a method's parameters, for {@link #ofArguments}, from their generic types; how
     * each type's state is read is decided now ({@link ValueTypes}).
     *
     * @throws IdempotencyConfigurationException a parameter's state cannot be read faithfully (not
     *     checked for a JAX-RS resource method, whose request is guarded over HTTP)
     */
    static ArgumentWriter[] writers(Method method) {
        Type[] types = method.getGenericParameterTypes();
        if (types.length != method.getParameterCount()) {
            // Inner-class constructors and some synthetic methods: fall back to the erased types.
            types = method.getParameterTypes();
        }
        boolean http = ValueTypes.servedOverHttp(method);
        ArgumentWriter[] writers = new ArgumentWriter[types.length];
        for (int i = 0; i < writers.length; i++) {
            if (!http) {
                String problem = ValueTypes.parameterProblem(method, i);
                if (problem != null) {
                    throw new IdempotencyConfigurationException(problem);
                }
            }
            writers[i] = ArgumentWriter.of(types[i]);
        }
        return writers;
    }

    /**
     * The canonical JSON of a call's arguments: exactly the text of {@code of(Arrays.asList(args))}
     * for arguments of their declared classes, each argument written as its parameter's writer says.
     */
    static String ofArguments(Object[] args, ArgumentWriter[] writers) {
        if (args.length != writers.length) {
            return of(Arrays.asList(args));
        }
        StringBuilder sb = new StringBuilder(64).append('[');
        for (int i = 0; i < args.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object v = args[i];
            if (v == null) {
                sb.append("null");
                continue;
            }
            ArgumentWriter w = writers[i];
            if (w == ArgumentWriter.STRING) {
                appendString(sb, (String) v);
            } else if (w == ArgumentWriter.INTEGRAL) {
                sb.append(((Number) v).longValue());
            } else if (w == ArgumentWriter.BOOLEAN) {
                sb.append(((Boolean) v).booleanValue());
            } else {
                append(sb, v, w.declared, null);
            }
        }
        return sb.append(']').toString();
    }

    /**
     * The text of one key value: the value itself for simple types (a number by its value, {@link
     * #numberText}), the canonical JSON otherwise.
     */
    public static String keyText(Object value) {
        return keyText(value, value == null ? Object.class : value.getClass());
    }

    /** The text of one key value declared with a type (see {@link #of(Object, Type)}). */
    static String keyText(Object value, Type declared) {
        if (value instanceof CharSequence
                || value instanceof Boolean
                || value instanceof Character
                || value instanceof UUID) {
            return String.valueOf(value);
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Number n) {
            return numberText(n);
        }
        return of(value, declared);
    }

    /**
     * The key text of a number: its decimal value, the same on every JVM. Integers as they print; a
     * {@code BigDecimal} without trailing zeros or exponent ({@code 12.5} and {@code 12.50} are one
     * key); a {@code double} or {@code float} as the shortest decimal that reads back as the same
     * value ({@code 0.1}, {@code 1.0} is {@code 1}, {@code 2e23} is {@code 200000000000000000000000}):
     * the number Java 19's {@code Double.toString} writes, computed here so that Java 17, whose
     * {@code Double.toString} writes some values with more digits, gives the same text. Not a
     * number's JSON text: NaN and the infinities as {@code Double.toString} writes them.
     */
    static String numberText(Number n) {
        if (n instanceof BigDecimal d) {
            return plain(d);
        }
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (!Double.isFinite(d)) {
                return Double.toString(d);
            }
            return plain(shortest(d, n instanceof Float));
        }
        return String.valueOf(n);
    }

    /**
     * The decimal Java 19's {@code Double.toString} (or {@code Float.toString}, with {@code single})
     * chooses: of the decimals of the fewest digits, at least 2, that read back as the value, the
     * closest to it, an even last digit on a tie. Pure {@code BigDecimal} arithmetic (the two
     * neighbours of the exact binary value at each precision), so every JVM gives the same digits.
     */
    static BigDecimal shortest(double d, boolean single) {
        if (d == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal exact = new BigDecimal(d);
        int most = single ? 9 : 17;
        for (int digits = 2; digits <= most; digits++) {
            BigDecimal below = exact.round(new MathContext(digits, RoundingMode.FLOOR));
            BigDecimal above = exact.round(new MathContext(digits, RoundingMode.CEILING));
            boolean belowReads = readsBack(below, d, single);
            boolean aboveReads = readsBack(above, d, single);
            if (belowReads && aboveReads) {
                int closer = exact.subtract(below).compareTo(above.subtract(exact));
                if (closer != 0) {
                    return closer < 0 ? below : above;
                }
                return below.unscaledValue().testBit(0) ? above : below;
            }
            if (belowReads || aboveReads) {
                return belowReads ? below : above;
            }
        }
        // 17 significant digits always read back as the same double, 9 as the same float.
        return exact;
    }

    private static boolean readsBack(BigDecimal decimal, double d, boolean single) {
        return single ? decimal.floatValue() == (float) d : decimal.doubleValue() == d;
    }

    private static String plain(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    static void append(StringBuilder sb, Object v) {
        append(sb, v, v == null ? Object.class : v.getClass(), null);
    }

    /**
     * Appends a value declared with a type; {@code path} holds the objects being written around it
     * ({@code null} at the top), so that a cycle is refused.
     */
    static void append(StringBuilder sb, Object v, Type declared, ValueTypes.Path path) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof CharSequence || v instanceof Character || v instanceof UUID) {
            appendString(sb, v.toString());
        } else if (v instanceof Enum<?> e) {
            if (ValueTypes.enumNeedsClass(e, declared)) {
                sb.append('{');
                appendString(sb, ValueTypes.CLASS_TAG);
                sb.append(':');
                appendString(sb, e.getDeclaringClass().getName());
                sb.append(",\"name\":");
                appendString(sb, e.name());
                sb.append('}');
            } else {
                appendString(sb, e.name());
            }
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof BigInteger i) {
            sb.append(i);
        } else if (v instanceof BigDecimal d) {
            appendNumber(sb, d);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) {
                // new BigDecimal(double) is the exact binary value: identical on every JVM version,
                // unlike Double.toString, whose output changed in Java 19.
                appendNumber(sb, new BigDecimal(d));
            } else {
                appendString(sb, Double.toString(d));
            }
        } else if (v instanceof TemporalAccessor) {
            appendString(sb, v.toString());
        } else if (v instanceof Locale l) {
            appendString(sb, l.toLanguageTag());
        } else if (v instanceof Currency c) {
            appendString(sb, c.getCurrencyCode());
        } else if (v instanceof Optional<?> o) {
            append(sb, o.orElse(null), ValueTypes.typeArgument(declared, 0), path);
        } else if (v instanceof Map<?, ?> m) {
            appendMap(sb, m, declared, path);
        } else if (v instanceof Set<?> s) {
            Type element = ValueTypes.elementType(declared);
            List<String> elements = new ArrayList<>(s.size());
            for (Object e : s) {
                StringBuilder one = new StringBuilder(16);
                append(one, e, element, path);
                elements.add(one.toString());
            }
            elements.sort(null);
            sb.append('[').append(String.join(",", elements)).append(']');
        } else if (v instanceof Collection<?> c) {
            appendAll(sb, c, ValueTypes.elementType(declared), path);
        } else if (v instanceof Object[] a) {
            appendAll(sb, Arrays.asList(a), ValueTypes.elementType(declared), path);
        } else if (v instanceof JsonValue j) {
            appendJson(sb, j);
        } else {
            appendObject(sb, v, declared, path);
        }
    }

    /**
     * Appends an object that is not one of {@link #append}'s JDK cases, as its class's {@link
     * ValueTypes.Shape} says: through JSON-B where JSON-B writes all of its state (the text this
     * library always wrote for such values), else by its fields.
     */
    private static void appendObject(StringBuilder sb, Object v, Type declared, ValueTypes.Path path) {
        Class<?> c = v.getClass();
        ValueTypes.Shape shape = ValueTypes.shape(c);
        switch (shape.kind()) {
            case VALUE -> appendJsonb(sb, v);
            case JSONB, FIELDS -> {
                boolean tagged = c != ValueTypes.raw(declared);
                if (shape.kind() == ValueTypes.Kind.JSONB && !tagged) {
                    if (!shape.walk()) {
                        appendJsonbKind(sb, v, shape);
                        return;
                    }
                    ValueTypes.Path walked = path == null ? new ValueTypes.Path() : path;
                    if (jsonbWritesAll(v, shape, walked)) {
                        appendJsonb(sb, v);
                        return;
                    }
                }
                appendFields(sb, v, shape, tagged, path == null ? new ValueTypes.Path() : path);
            }
            default -> throw ValueTypes.refusedAtCall(
                    c, shape.refusal() == null ? "it is not a concrete class" : shape.refusal());
        }
    }

    /**
     * Appends a value JSON-B writes whole: directly where its class has a {@link DirectJson} plan (the
     * same text, without JSON-B's cost), else through JSON-B, as where the plan meets a value it did
     * not foresee.
     */
    private static void appendJsonbKind(StringBuilder sb, Object v, ValueTypes.Shape shape) {
        DirectJson.Plan direct = shape.direct();
        if (direct != null) {
            int mark = sb.length();
            if (DirectJson.append(sb, v, direct)) {
                return;
            }
            sb.setLength(mark);
        }
        appendJsonb(sb, v);
    }

    private static void appendJsonb(StringBuilder sb, Object v) {
        String json = jsonb().toJson(v);
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            appendJson(sb, reader.readValue());
        }
    }

    /** An object by its fields, sorted by name, after its class name where its declared type does not tell it. */
    private static void appendFields(
            StringBuilder sb, Object v, ValueTypes.Shape shape, boolean tagged, ValueTypes.Path path) {
        ValueTypes.requireLoaded(v);
        path.enter(v);
        sb.append('{');
        boolean first = true;
        if (tagged) {
            appendString(sb, ValueTypes.CLASS_TAG);
            sb.append(':');
            appendString(sb, v.getClass().getName());
            first = false;
        }
        for (ValueTypes.Prop p : shape.props()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            appendString(sb, p.name());
            sb.append(':');
            append(sb, p.get(v), p.type(), path);
        }
        sb.append('}');
        path.leave(v);
    }

    /**
     * Whether JSON-B writes all of this value's state: each nested object is of its field's declared
     * class, and that class is one JSON-B writes whole. A cycle is refused.
     */
    private static boolean jsonbWritesAll(Object v, ValueTypes.Shape shape, ValueTypes.Path path) {
        path.enter(v);
        try {
            for (ValueTypes.Prop p : shape.props()) {
                if (!nestedJsonbWritesAll(p.get(v), p.type(), path)) {
                    return false;
                }
            }
            return true;
        } finally {
            path.leave(v);
        }
    }

    private static boolean nestedJsonbWritesAll(Object x, Type declared, ValueTypes.Path path) {
        if (x == null) {
            return true;
        }
        Class<?> c = x.getClass();
        if (x instanceof Map<?, ?> m) {
            for (Object e : m.values()) {
                if (!nestedJsonbWritesAll(e, ValueTypes.elementType(declared), path)) {
                    return false;
                }
            }
            return true;
        }
        if (x instanceof Collection<?> col) {
            for (Object e : col) {
                if (!nestedJsonbWritesAll(e, ValueTypes.elementType(declared), path)) {
                    return false;
                }
            }
            return true;
        }
        if (x instanceof Object[] a) {
            for (Object e : a) {
                if (!nestedJsonbWritesAll(e, ValueTypes.elementType(declared), path)) {
                    return false;
                }
            }
            return true;
        }
        if (x instanceof Optional<?> o) {
            return nestedJsonbWritesAll(o.orElse(null), ValueTypes.typeArgument(declared, 0), path);
        }
        if (ValueTypes.isValue(c)) {
            return true;
        }
        ValueTypes.Shape shape = ValueTypes.shape(c);
        if (c != ValueTypes.raw(declared) || shape.kind() != ValueTypes.Kind.JSONB) {
            return false;
        }
        return !shape.walk() || jsonbWritesAll(x, shape, path);
    }

    private static void appendAll(StringBuilder sb, Collection<?> c, Type element, ValueTypes.Path path) {
        sb.append('[');
        boolean first = true;
        for (Object e : c) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            append(sb, e, element, path);
        }
        sb.append(']');
    }

    /**
     * A map as an object of its entries sorted by key text. Keys of different values may have one text
     * (in a {@code Map<Object, V>}, {@code 1} and {@code 1L}; {@code 1.5} and {@code 1.50}, which a
     * map holds apart): then every entry is written, sorted by key and then by value text, so that no
     * entry is lost. A map whose key texts differ is written exactly as before this rule.
     */
    private static void appendMap(StringBuilder sb, Map<?, ?> m, Type declared, ValueTypes.Path path) {
        Type keyType = ValueTypes.typeArgument(declared, 0);
        Type valueType = ValueTypes.typeArgument(declared, 1);
        List<String[]> entries = new ArrayList<>(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
            StringBuilder value = new StringBuilder(16);
            append(value, e.getValue(), valueType, path);
            entries.add(new String[] {keyText(e.getKey(), keyType), value.toString()});
        }
        entries.sort(Comparator.<String[], String>comparing(e -> e[0]).thenComparing(e -> e[1]));
        sb.append('{');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            appendString(sb, entries.get(i)[0]);
            sb.append(':').append(entries.get(i)[1]);
        }
        sb.append('}');
    }

    private static void appendJson(StringBuilder sb, JsonValue j) {
        switch (j.getValueType()) {
            case OBJECT -> {
                JsonObject o = j.asJsonObject();
                sb.append('{');
                boolean first = true;
                for (String name : new TreeMap<>(o).keySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    appendString(sb, name);
                    sb.append(':');
                    appendJson(sb, o.get(name));
                }
                sb.append('}');
            }
            case ARRAY -> {
                JsonArray a = j.asJsonArray();
                sb.append('[');
                for (int i = 0; i < a.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    appendJson(sb, a.get(i));
                }
                sb.append(']');
            }
            case STRING -> appendString(sb, ((JsonString) j).getString());
            case NUMBER -> appendNumber(sb, ((JsonNumber) j).bigDecimalValue());
            case TRUE -> sb.append("true");
            case FALSE -> sb.append("false");
            case NULL -> sb.append("null");
        }
    }

    private static boolean needsNoEscape(char c) {
        return c >= 0x20 && c != '"' && c != '\\';
    }

    static void appendNumber(StringBuilder sb, BigDecimal d) {
        sb.append(plain(d));
    }

    /**
     * Reads a JSON text that is exactly one string literal, such as {@link #appendString} or JSON-B
     * write: the value, or {@code null} if the text is anything else (the caller then parses it the
     * general way). Every JSON escape is understood, {@code \\u} with its four hex digits included.
     */
    static String readStringLiteral(String json) {
        int end = json.length() - 1;
        if (end < 1 || json.charAt(0) != '"' || json.charAt(end) != '"') {
            return null;
        }
        int escape = json.indexOf('\\', 1);
        if (escape < 0) {
            return json.indexOf('"', 1) == end ? json.substring(1, end) : null;
        }
        StringBuilder sb = new StringBuilder(end).append(json, 1, escape);
        int i = escape;
        while (i < end) {
            char c = json.charAt(i++);
            if (c == '"') {
                return null;
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= end) {
                return null;
            }
            char e = json.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (i + 4 > end) {
                        return null;
                    }
                    int code = 0;
                    for (int k = 0; k < 4; k++) {
                        int digit = Character.digit(json.charAt(i++), 16);
                        if (digit < 0) {
                            return null;
                        }
                        code = code * 16 + digit;
                    }
                    sb.append((char) code);
                }
                default -> {
                    return null;
                }
            }
        }
        return sb.toString();
    }

    /** Appends a JSON string literal: quotes, backslash and control characters escaped, nothing else. */
    static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        int plain = 0;
        while (plain < s.length() && needsNoEscape(s.charAt(plain))) {
            plain++;
        }
        // Keys and ids rarely hold a character to escape: copy them in one append.
        sb.append(s, 0, plain);
        for (int i = plain; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
