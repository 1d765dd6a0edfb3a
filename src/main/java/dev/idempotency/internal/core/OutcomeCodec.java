package dev.idempotency.internal.core;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyReplayException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Encodes a method's outcome (its return value or a kept exception) as stored bytes, and turns
 * stored bytes back into that outcome. The bytes are a small JSON document, readable in the store:
 *
 * <ul>
 *   <li>{@code {"t":"value","v":<JSON-B of the value>}}, read back with the method's generic return
 *       type, so a {@code List<Dto>} comes back as a {@code List<Dto>};
 *   <li>{@code {"t":"void"}} for void methods;
 *   <li>an empty {@code Optional}, {@code OptionalInt}, {@code OptionalLong} or {@code OptionalDouble} is
 *       {@code {"t":"value","v":null}}, as JSON-B writes it, and is read back as the empty value of the
 *       declared type, not as {@code null} (so is a {@code null} such a method returned);
 *   <li>{@code {"t":"exception","type":"com.example.Declined","message":"...","fields":{"code":"05"}}}
 *       with the fields of {@link KeptException}, or {@code "unkept":"<why>"} instead of {@code
 *       "fields"} when one cannot be kept (a repeat then gets {@link IdempotencyReplayException}).
 *       Records written without either are rebuilt from type and message alone;
 *   <li>{@code {"t":"unreplayable","type":"...","reason":"..."}} when the value could not be
 *       serialized: the call completed, so repeats get {@link IdempotencyReplayException} rather than
 *       a second run.
 * </ul>
 *
 * <p>A method whose return type (or stage value type) JSON-B cannot read back, or whose declared
 * exceptions cannot be kept with their fields, is refused when the codec is built ({@link ReadBack}).
 */
final class OutcomeCodec {

    private static final String VALUE_PREFIX = "{\"t\":\"value\",\"v\":";
    private static final byte[] VOID = "{\"t\":\"void\"}".getBytes(StandardCharsets.UTF_8);

    private final Method method;
    private final Type returnType;
    private final boolean isVoid;
    /** Whether the declared return type is an integral number or a boolean (see {@link #simpleJson}). */
    private final boolean integralOrBoolean;
    /** What a stored {@code null} is read back as: the empty value of an optional type, else {@code null}. */
    private final Object absent;

    /** @param method the guarded method, whose return type is the type of the stored values */
    public OutcomeCodec(Method method) {
        this(method, method.getGenericReturnType());
    }

    /**
     * @param method the guarded method
     * @param valueType the type of the values stored and replayed: the return type, or {@code T} of a
     *     method returning {@code CompletionStage<T>}
     */
    public OutcomeCodec(Method method, Type valueType) {
        this.method = method;
        this.returnType = valueType;
        this.isVoid = valueType == void.class || valueType == Void.class;
        this.integralOrBoolean = isIntegralOrBoolean(returnType);
        this.absent = absent(returnType);
        refuseWhatCannotReplay(method, valueType);
    }

    /**
     * Refuses a method whose result, or one of whose declared checked exceptions (kept by default), could
     * be stored but not handed back as it was: the first call would run, and every repeat would fail.
     *
     * @throws IdempotencyConfigurationException naming the method, the type, the reason and the fix
     */
    private void refuseWhatCannotReplay(Method method, Type valueType) {
        if (!isVoid) {
            ReadBack.Problem p = ReadBack.problem(valueType);
            if (p != null) {
                String what = valueType == method.getGenericReturnType()
                        ? "its return type " + ReadBack.typeName(valueType)
                        : "the value type " + ReadBack.typeName(valueType) + " of its returned stage";
                throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                        + " cannot replay its result: a repeat hands back the stored result as " + what + ", but "
                        + p.describe() + ".");
            }
        }
        for (Class<?> thrown : method.getExceptionTypes()) {
            if (RuntimeException.class.isAssignableFrom(thrown) || Error.class.isAssignableFrom(thrown)) {
                continue; // kept only when its transaction committed: checked when that happens, not refused here
            }
            String unkept = KeptException.of(thrown).unkept();
            if (unkept != null) {
                throw new IdempotencyConfigurationException("@Idempotent on " + PolicyResolver.describe(method)
                        + " cannot replay its declared exception " + thrown.getName() + " with its state: " + unkept
                        + ".");
            }
        }
    }

    /** The stored form of a returned value. */
    public byte[] value(Object value) {
        if (isVoid) {
            return VOID.clone();
        }
        String simple = simpleJson(value);
        if (simple != null) {
            return (VALUE_PREFIX + simple + "}").getBytes(StandardCharsets.UTF_8);
        }
        String json;
        try {
            json = value == null ? "null" : CanonicalJson.jsonb().toJson(value, returnType);
        } catch (RuntimeException e) {
            JsonObjectBuilder b = CanonicalJson.JSON
                    .createObjectBuilder()
                    .add("t", "unreplayable")
                    .add("type", value.getClass().getName())
                    .add("reason", String.valueOf(e.getMessage()));
            return b.build().toString().getBytes(StandardCharsets.UTF_8);
        }
        // Written by concatenation, not by re-parsing the JSON-B text: it is valid JSON already.
        return (VALUE_PREFIX + json + "}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The JSON of a value whose declared return type is a string, a boolean or an integral number,
     * written directly: the same text JSON-B writes for it, at a fraction of the cost. {@code null} for
     * every other value, which then goes through JSON-B.
     */
    private String simpleJson(Object value) {
        if (value instanceof String s && returnType == String.class) {
            StringBuilder sb = new StringBuilder(s.length() + 2);
            CanonicalJson.appendString(sb, s);
            return sb.toString();
        }
        if ((value instanceof Long
                        || value instanceof Integer
                        || value instanceof Short
                        || value instanceof Byte
                        || value instanceof Boolean)
                && integralOrBoolean) {
            return value.toString();
        }
        return null;
    }

    /** The inverse of {@link #simpleJson}: the value, or {@code null} to let JSON-B read the text. */
    private Object readSimple(String json) {
        if (returnType == String.class) {
            return CanonicalJson.readStringLiteral(json);
        }
        if (!integralOrBoolean) {
            return null;
        }
        try {
            if (returnType == long.class || returnType == Long.class) {
                return Long.valueOf(json);
            }
            if (returnType == int.class || returnType == Integer.class) {
                return Integer.valueOf(json);
            }
            if (returnType == short.class || returnType == Short.class) {
                return Short.valueOf(json);
            }
            if (returnType == byte.class || returnType == Byte.class) {
                return Byte.valueOf(json);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return switch (json) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        };
    }

    /**
     * The value a stored {@code null} stands for. JSON-B writes an empty {@code Optional} (and {@code
     * OptionalInt}, {@code OptionalLong}, {@code OptionalDouble}) as {@code null}, and a repeat must get
     * an empty one back, not a {@code null} whose {@code isPresent()} throws; for any other type, {@code
     * null}.
     */
    private static Object absent(Type t) {
        Type raw = t instanceof ParameterizedType p ? p.getRawType() : t;
        if (raw == Optional.class) {
            return Optional.empty();
        }
        if (raw == OptionalInt.class) {
            return OptionalInt.empty();
        }
        if (raw == OptionalLong.class) {
            return OptionalLong.empty();
        }
        if (raw == OptionalDouble.class) {
            return OptionalDouble.empty();
        }
        return null;
    }

    private static boolean isIntegralOrBoolean(Type t) {
        if (!(t instanceof Class<?> c)) {
            return false;
        }
        CanonicalJson.ArgumentWriter writer = CanonicalJson.ArgumentWriter.of(c);
        return writer == CanonicalJson.ArgumentWriter.INTEGRAL || writer == CanonicalJson.ArgumentWriter.BOOLEAN;
    }

    /**
     * The stored form of a kept exception: its type, message and own fields ({@link KeptException}), not
     * its cause, stack trace or suppressed exceptions.
     */
    public byte[] exception(Throwable t) {
        JsonObjectBuilder b = CanonicalJson.JSON
                .createObjectBuilder()
                .add("t", "exception")
                .add("type", t.getClass().getName());
        if (t.getMessage() != null) {
            b.add("message", t.getMessage());
        }
        KeptException.of(t.getClass()).write(t, b);
        return b.build().toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Hands back a stored outcome: returns the value, or throws the kept exception.
     *
     * @throws IdempotencyReplayException the outcome cannot be handed back as it was
     */
    public Object replay(byte[] stored, RecordKey key) throws Exception {
        String text = new String(stored, StandardCharsets.UTF_8);
        if (text.startsWith(VALUE_PREFIX) && text.endsWith("}")) {
            // The common case, in the exact form value() writes: hand the value to JSON-B directly.
            String json = text.substring(VALUE_PREFIX.length(), text.length() - 1);
            if (json.equals("null")) {
                return absent;
            }
            Object simple = readSimple(json);
            return simple != null ? simple : read(json, key);
        }
        JsonObject o;
        try (JsonReader r = CanonicalJson.JSON.createReader(new ByteArrayInputStream(stored))) {
            o = r.readObject();
        } catch (RuntimeException e) {
            throw unreadable("it is not the JSON this library writes", key, e);
        }
        String kind = o.getString("t", "");
        switch (kind) {
            case "void":
                return null;
            case "value": {
                JsonValue v = o.get("v");
                if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
                    return absent;
                }
                return read(v.toString(), key);
            }
            case "exception":
                throw rebuild(o, key);
            case "unreplayable":
                throw new IdempotencyReplayException(
                        key.operation(),
                        key.hash(),
                        "Operation '" + key.operation() + "' completed for key #" + key.hash()
                                + ", but its result (" + o.getString("type", "?")
                                + ") could not be serialized with JSON-B, so it cannot be replayed; the operation"
                                + " is not run again. Make the return type JSON-B serializable. Cause: "
                                + o.getString("reason", "?"));
            default:
                throw new IdempotencyReplayException(
                        key.operation(),
                        key.hash(),
                        "Stored outcome of '" + key.operation() + "' for key #" + key.hash() + " has an unknown form '"
                                + kind + "'; was it written by a newer version?");
        }
    }

    /** The stored value read back as the declared type. */
    private Object read(String json, RecordKey key) {
        try {
            return CanonicalJson.jsonb().fromJson(json, returnType);
        } catch (RuntimeException e) {
            throw unreadable("JSON-B cannot read it back as " + ReadBack.typeName(returnType), key, e);
        }
    }

    private IdempotencyReplayException unreadable(String why, RecordKey key, RuntimeException cause) {
        return new IdempotencyReplayException(
                key.operation(),
                key.hash(),
                "Operation '" + key.operation() + "' completed for key #" + key.hash() + ", but its stored outcome"
                        + " cannot be handed back: " + why + " (did the type change since it was stored?); the"
                        + " operation is not run again. Make the type read the stored form, or delete the record"
                        + " to let the key run again. Cause: " + cause,
                cause);
    }

    private Exception rebuild(JsonObject stored, RecordKey key) {
        String type = stored.getString("type");
        String message = stored.getString("message", null);
        String kept = type + (message == null ? "" : ": " + message);
        String unkept = stored.getString("unkept", null);
        if (unkept != null) {
            return new IdempotencyReplayException(
                    key.operation(),
                    key.hash(),
                    "Operation '" + key.operation() + "' failed for key #" + key.hash() + " with " + kept
                            + "; that exception is replayed as this one because " + unkept + ".");
        }
        Throwable t;
        String why;
        try {
            Class<?> c = Class.forName(type, false, method.getDeclaringClass().getClassLoader());
            if (!Throwable.class.isAssignableFrom(c)) {
                t = null;
                why = type + " is not an exception here";
            } else if (stored.containsKey("fields")) {
                KeptException shape = KeptException.of(c);
                t = shape.rebuild(message, stored.getJsonObject("fields"));
                why = "none of " + shape.triedConstructors()
                        + " rebuilds it with the same message; give it a constructor that takes the message, or a"
                        + " no-argument constructor";
            } else {
                // Written before exceptions were kept with their fields: rebuilt from the message alone.
                t = legacy(c, message);
                why = type + " has no public (String) or no-argument constructor here";
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            t = null;
            why = type + " cannot be rebuilt here (" + e + ")";
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof Exception e) {
            return e;
        }
        return new IdempotencyReplayException(
                key.operation(),
                key.hash(),
                "Operation '" + key.operation() + "' failed for key #" + key.hash() + " with " + kept
                        + "; that exception is replayed as this one because " + why + ".");
    }

    private static Throwable legacy(Class<?> c, String message) throws ReflectiveOperationException {
        try {
            Constructor<?> withMessage = c.getConstructor(String.class);
            return (Throwable) withMessage.newInstance(message);
        } catch (NoSuchMethodException e) {
            Constructor<?> plain = c.getConstructor();
            return (Throwable) plain.newInstance();
        }
    }
}
