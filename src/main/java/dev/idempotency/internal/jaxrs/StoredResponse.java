package dev.idempotency.internal.jaxrs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A response as stored for replay: status, the headers that are safe to repeat, and the exact body
 * bytes. When the body was larger than {@code idempotency.http.max-stored-body}, only its size is
 * kept ({@link #bodyStored()} false) and a repeat gets a problem response instead of a re-execution.
 *
 * <p>Binary form (big-endian): magic {@code IDH1}, a flag byte (1 = body stored), the status, the
 * header count, then per header its name and its values (each an int length and UTF-8 bytes), then
 * either the body (int length and bytes) or the original body size (long).
 *
 * @param status the HTTP status
 * @param headers the stored headers, in response order; names as the application wrote them
 * @param body the body bytes; empty when not stored
 * @param bodyStored whether {@link #body()} is the whole body
 * @param bodySize the original body size in bytes, or {@link #NOT_WRITTEN} when the response could
 *     not be written at all (its entity failed to serialize after the resource method returned)
 */
record StoredResponse(int status, Map<String, List<String>> headers, byte[] body, boolean bodyStored, long bodySize) {

    /** {@link #bodySize()} of a response whose entity could not be written: nothing to replay. */
    public static final long NOT_WRITTEN = -1;

    private static final byte[] MAGIC = {'I', 'D', 'H', '1'};

    /**
     * Headers never stored: credentials and cookies belong to one exchange, hop-by-hop headers to one
     * connection, and the framing headers are recomputed for the replayed body. {@code Proxy-*} is
     * excluded by prefix.
     */
    private static final Set<String> EXCLUDED = Set.of(
            "set-cookie",
            "set-cookie2",
            "authorization",
            "www-authenticate",
            "authentication-info",
            "cookie",
            "connection",
            "keep-alive",
            "transfer-encoding",
            "te",
            "trailer",
            "upgrade",
            "content-length",
            "date",
            "retry-after",
            IdempotencyFilter.REPLAYED_HEADER.toLowerCase(Locale.ROOT));

    /** Copies and freezes the fields. */
    public StoredResponse {
        Objects.requireNonNull(body, "body");
        Map<String, List<String>> copy = new LinkedHashMap<>();
        headers.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        headers = Collections.unmodifiableMap(copy);
    }

    /** Whether a response header may be stored and replayed. */
    public static boolean storable(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return !EXCLUDED.contains(n) && !n.startsWith("proxy-");
    }

    /** Keeps the storable headers of a response, in order. */
    public static Map<String, List<String>> storableHeaders(Map<String, List<String>> headers) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (name != null && storable(name) && values != null && !values.isEmpty()) {
                result.put(name, values);
            }
        });
        return result;
    }

    /** The stored bytes. */
    public byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + body.length);
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(MAGIC);
            out.writeByte(bodyStored ? 1 : 0);
            out.writeInt(status);
            out.writeInt(headers.size());
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                text(out, h.getKey());
                out.writeInt(h.getValue().size());
                for (String v : h.getValue()) {
                    text(out, v);
                }
            }
            if (bodyStored) {
                out.writeInt(body.length);
                out.write(body);
            } else {
                out.writeLong(bodySize);
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
    }

    /**
     * Reads stored bytes.
     *
     * @throws IllegalArgumentException the bytes are not a stored response
     */
    public static StoredResponse decode(byte[] stored) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored));
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new IllegalArgumentException("not a stored HTTP response (unknown format)");
            }
            boolean bodyStored = in.readByte() == 1;
            int status = in.readInt();
            int count = in.readInt();
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = text(in);
                int n = in.readInt();
                List<String> values = new ArrayList<>(n);
                for (int j = 0; j < n; j++) {
                    values.add(text(in));
                }
                headers.put(name, values);
            }
            if (bodyStored) {
                byte[] body = in.readNBytes(in.readInt());
                return new StoredResponse(status, headers, body, true, body.length);
            }
            return new StoredResponse(status, headers, new byte[0], false, in.readLong());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("corrupt stored HTTP response: " + e, e);
        }
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String text(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException("bad length " + n);
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }
}
