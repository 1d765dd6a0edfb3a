package dev.idempotency.internal.jaxrs;

import dev.idempotency.internal.core.Hashing;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;

/**
 * The fingerprint of an HTTP request: SHA-256 over the method, the raw path, the raw query, the
 * configured headers and the body bytes. Each part is length-prefixed, so that moving bytes from one
 * part to the next changes the fingerprint. A repeat with the same key and a different fingerprint is
 * a different request (422).
 */
final class Fingerprint {

    private Fingerprint() {}

    /**
     * Computes a fingerprint.
     *
     * @param method the HTTP method
     * @param rawPath the request path as sent (percent-encoded)
     * @param rawQuery the query as sent, or {@code null}
     * @param headers the configured fingerprint headers (lower-case names, in a fixed order) and their
     *     values; an absent header has no values
     * @param body the request body, empty when there is none
     * @return 64 lower-case hex characters
     */
    public static String of(
            String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {
        MessageDigest md = Hashing.sha256();
        part(md, method.getBytes(StandardCharsets.UTF_8));
        part(md, rawPath.getBytes(StandardCharsets.UTF_8));
        part(md, rawQuery == null ? new byte[] {0} : ("?" + rawQuery).getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            part(md, h.getKey().getBytes(StandardCharsets.UTF_8));
            List<String> values = h.getValue() == null ? List.of() : h.getValue();
            length(md, values.size());
            for (String v : values) {
                part(md, v.getBytes(StandardCharsets.UTF_8));
            }
        }
        part(md, body);
        return Hashing.hex(md.digest());
    }

    private static void part(MessageDigest md, byte[] bytes) {
        length(md, bytes.length);
        md.update(bytes);
    }

    /** The 4-byte big-endian length, in one update: byte-by-byte updates cost as much as the hashing. */
    private static void length(MessageDigest md, int n) {
        md.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    }
}
