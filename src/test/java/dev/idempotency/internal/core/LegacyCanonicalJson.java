package dev.idempotency.internal.core;

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
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The canonical JSON of keys and fingerprints as this library derived it before values were read by
 * their fields: the reference the byte-identity properties compare the current derivation with. Do
 * not change it; it is what stored records were made with.
 */
final class LegacyCanonicalJson {

    /**
     * Resolved once: every static {@code Json.createX} call looks the provider up through the
     * ServiceLoader again, which costs more than the rest of a guarded call.
     */
    static final JsonProvider JSON = JsonProvider.provider();

    private static volatile Jsonb jsonb;

    private LegacyCanonicalJson() {}

    /** The shared JSON-B instance, created on first use (it is thread-safe and costly to build). */
    public static Jsonb jsonb() {
        Jsonb j = jsonb;
        if (j == null) {
            synchronized (LegacyCanonicalJson.class) {
                j = jsonb;
                if (j == null) {
                    j = JsonbBuilder.create();
                    jsonb = j;
                }
            }
        }
        return j;
    }

    /** The canonical JSON text of a value. */
    public static String of(Object value) {
        StringBuilder sb = new StringBuilder(64);
        append(sb, value);
        return sb.toString();
    }

    /**
     * The text of one key value: the value itself for simple types ({@code String.valueOf}), the
     * canonical JSON otherwise.
     */
    public static String keyText(Object value) {
        if (value instanceof CharSequence
                || value instanceof Number
                || value instanceof Boolean
                || value instanceof Character
                || value instanceof Enum<?>
                || value instanceof UUID) {
            return value instanceof Enum<?> e ? e.name() : String.valueOf(value);
        }
        return of(value);
    }

    static void append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof CharSequence || v instanceof Character || v instanceof UUID) {
            appendString(sb, v.toString());
        } else if (v instanceof Enum<?> e) {
            appendString(sb, e.name());
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
        } else if (v instanceof Optional<?> o) {
            append(sb, o.orElse(null));
        } else if (v instanceof Map<?, ?> m) {
            appendMap(sb, m);
        } else if (v instanceof Set<?> s) {
            List<String> elements = new ArrayList<>(s.size());
            for (Object e : s) {
                elements.add(of(e));
            }
            elements.sort(null);
            sb.append('[').append(String.join(",", elements)).append(']');
        } else if (v instanceof Collection<?> c) {
            appendAll(sb, c);
        } else if (v instanceof Object[] a) {
            appendAll(sb, Arrays.asList(a));
        } else if (v instanceof JsonValue j) {
            appendJson(sb, j);
        } else {
            String json = jsonb().toJson(v);
            try (JsonReader reader = JSON.createReader(new StringReader(json))) {
                appendJson(sb, reader.readValue());
            }
        }
    }

    private static void appendAll(StringBuilder sb, Collection<?> c) {
        sb.append('[');
        boolean first = true;
        for (Object e : c) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            append(sb, e);
        }
        sb.append(']');
    }

    private static void appendMap(StringBuilder sb, Map<?, ?> m) {
        TreeMap<String, Object> sorted = new TreeMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            sorted.put(keyText(e.getKey()), e.getValue());
        }
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : sorted.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            appendString(sb, e.getKey());
            sb.append(':');
            append(sb, e.getValue());
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

    private static void appendNumber(StringBuilder sb, BigDecimal d) {
        sb.append(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
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
