package dev.idempotency.internal.jaxrs;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.spi.ConfigLookup;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code idempotency.http.*} configuration keys, their defaults, and their parsed values. Parsing
 * happens once, at deployment; an invalid value fails with {@link IdempotencyConfigurationException}
 * naming the key, the value and the fix, never with an error at request time.
 *
 * <p>Kept free of JAX-RS types so that it can be validated by the CDI extension and unit tested alone.
 *
 * @param header the key header's name
 * @param methods the guarded methods, upper case
 * @param keyMaxLength the longest accepted key
 * @param scope whose keys are separate
 * @param fingerprintHeaders the request headers, lower case, that join the fingerprint
 * @param releaseStatuses the statuses below 500 that release the key instead of being stored
 * @param maxStoredBody the largest stored response body, in bytes
 * @param failOpen whether a request runs unguarded when the store is unreachable
 */
record HttpSettings(
        String header,
        Set<String> methods,
        int keyMaxLength,
        Scope scope,
        List<String> fingerprintHeaders,
        Set<Integer> releaseStatuses,
        int maxStoredBody,
        boolean failOpen) {

    /** Name of the request header that carries the client's key. */
    public static final String HEADER = "idempotency.http.header";
    /** HTTP methods that are guarded, comma separated. */
    public static final String METHODS = "idempotency.http.methods";
    /** Maximum key length in characters, after removing sf-string quotes. */
    public static final String KEY_MAX_LENGTH = "idempotency.http.key-max-length";
    /** Who a key belongs to: {@code principal}, {@code none} or {@code header:<Name>}. */
    public static final String SCOPE = "idempotency.http.scope";
    /** Request headers, besides method, path, query and body, that are part of the fingerprint. */
    public static final String FINGERPRINT_HEADERS = "idempotency.http.fingerprint-headers";
    /** Statuses below 500 that release the key instead of being stored; 5xx always release. */
    public static final String RELEASE_STATUSES = "idempotency.http.release-statuses";
    /** Largest response body, in bytes, that is stored for replay. */
    public static final String MAX_STORED_BODY = "idempotency.http.max-stored-body";
    /** Whether a request runs unguarded (true) or gets 503 (false) when the store is unreachable. */
    public static final String FAIL_OPEN = "idempotency.http.fail-open";

    /** Default of {@link #HEADER}, the name of draft-ietf-httpapi-idempotency-key-header. */
    public static final String DEFAULT_HEADER = "Idempotency-Key";
    /** Default of {@link #METHODS}: the methods that RFC 9110 does not define as idempotent. */
    public static final String DEFAULT_METHODS = "POST,PATCH";
    /** Default of {@link #KEY_MAX_LENGTH}: Stripe's limit. */
    public static final int DEFAULT_KEY_MAX_LENGTH = 255;
    /** Default of {@link #SCOPE}. */
    public static final String DEFAULT_SCOPE = "principal";
    /**
     * Default of {@link #RELEASE_STATUSES}: Request Timeout, Conflict, Too Early and Too Many Requests
     * say "try again", so storing them would make every retry fail the same way.
     */
    public static final String DEFAULT_RELEASE_STATUSES = "408,409,425,429";
    /** Default of {@link #MAX_STORED_BODY}: 1 MiB. */
    public static final int DEFAULT_MAX_STORED_BODY = 1024 * 1024;

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "CONNECT");

    /**
     * Reads and checks every {@code idempotency.http.*} key.
     *
     * @throws IdempotencyConfigurationException naming the first invalid key and its fix
     */
    public static HttpSettings from(ConfigLookup s) {
        return new HttpSettings(
                token(HEADER, s.text(HEADER).orElse(DEFAULT_HEADER)),
                methods(s.get(METHODS).orElse(DEFAULT_METHODS)),
                s.intBetween(KEY_MAX_LENGTH, DEFAULT_KEY_MAX_LENGTH, 1, 8192),
                Scope.parse(s.get(SCOPE).orElse(DEFAULT_SCOPE)),
                headerList(s.get(FINGERPRINT_HEADERS).orElse("")),
                statuses(s.get(RELEASE_STATUSES).orElse(DEFAULT_RELEASE_STATUSES)),
                s.intBetween(MAX_STORED_BODY, DEFAULT_MAX_STORED_BODY, 0, Integer.MAX_VALUE - 64),
                s.bool(FAIL_OPEN, false));
    }

    /** Whether requests with this HTTP method (upper case) are guarded. */
    public boolean guards(String httpMethod) {
        return methods.contains(httpMethod.toUpperCase(Locale.ROOT));
    }

    /** Whether a response with this status releases the key instead of being stored. */
    public boolean releases(int status) {
        return status >= 500 || status < 200 || releaseStatuses.contains(status);
    }

    /**
     * Who a key belongs to: the same client key sent by two different scopes addresses two different
     * records.
     *
     * @param kind {@code none}, {@code principal} or {@code header}
     * @param headerName the header that names the scope, when kind is {@code header}
     */
    public record Scope(String kind, String headerName) {

        /** Keys are shared by all callers. */
        public static final String NONE = "none";
        /** Keys belong to the authenticated principal's name (anonymous callers share one scope). */
        public static final String PRINCIPAL = "principal";
        /** Keys belong to the value of a request header, such as a tenant id. */
        public static final String HEADER = "header";

        static Scope parse(String text) {
            String t = text.trim();
            String lower = t.toLowerCase(Locale.ROOT);
            if (lower.equals(NONE) || lower.equals(PRINCIPAL)) {
                return new Scope(lower, null);
            }
            if (lower.startsWith(HEADER + ":")) {
                String name = t.substring(HEADER.length() + 1).trim();
                return new Scope(HEADER, token(HttpSettings.SCOPE, name));
            }
            throw new IdempotencyConfigurationException("Config key '" + HttpSettings.SCOPE + "' is '" + text
                    + "'; use principal (the default), none, or header:<Header-Name> such as header:X-Tenant-Id.");
        }
    }

    private static String token(String key, String name) {
        if (name.isEmpty() || !name.chars().allMatch(HttpSettings::isTchar)) {
            throw new IdempotencyConfigurationException("Config key '" + key + "' names the header '" + name
                    + "', which is not a valid HTTP header name; use letters, digits and '-', such as "
                    + DEFAULT_HEADER + ".");
        }
        return name;
    }

    /** RFC 9110 tchar. */
    static boolean isTchar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static Set<String> methods(String text) {
        Set<String> result = new LinkedHashSet<>();
        for (String raw : text.split(",")) {
            String m = raw.trim().toUpperCase(Locale.ROOT);
            if (m.isEmpty()) {
                continue;
            }
            if (!m.chars().allMatch(HttpSettings::isTchar)) {
                throw new IdempotencyConfigurationException("Config key '" + METHODS + "' contains '" + raw.trim()
                        + "', which is not an HTTP method; list methods such as POST,PATCH.");
            }
            if (SAFE_METHODS.contains(m)) {
                throw new IdempotencyConfigurationException("Config key '" + METHODS + "' contains " + m
                        + ", a safe method that must never be guarded (its responses would be replayed instead of"
                        + " recomputed); list unsafe methods only, such as POST,PATCH.");
            }
            result.add(m);
        }
        if (result.isEmpty()) {
            throw new IdempotencyConfigurationException("Config key '" + METHODS + "' is '" + text
                    + "'; list at least one method, such as POST,PATCH, or remove @Idempotent from the resources.");
        }
        return Set.copyOf(result);
    }

    private static List<String> headerList(String text) {
        List<String> result = new ArrayList<>();
        Set<String> sorted = new TreeSet<>();
        for (String raw : text.split(",")) {
            String h = raw.trim();
            if (!h.isEmpty()) {
                sorted.add(token(FINGERPRINT_HEADERS, h).toLowerCase(Locale.ROOT));
            }
        }
        // Sorted, so that the fingerprint does not depend on the order the headers are listed in.
        result.addAll(sorted);
        return List.copyOf(result);
    }

    private static Set<Integer> statuses(String text) {
        Set<Integer> result = new TreeSet<>();
        for (String raw : text.split(",")) {
            String t = raw.trim();
            if (t.isEmpty()) {
                continue;
            }
            int status;
            try {
                status = Integer.parseInt(t);
            } catch (NumberFormatException e) {
                throw new IdempotencyConfigurationException(
                        "Config key '" + RELEASE_STATUSES + "' contains '" + t
                                + "', which is not a status code; list codes such as 408,409,425,429.",
                        e);
            }
            if (status < 200 || status > 499) {
                throw new IdempotencyConfigurationException("Config key '" + RELEASE_STATUSES + "' contains " + status
                        + "; list statuses from 200 to 499 (5xx always release the key).");
            }
            result.add(status);
        }
        return Set.copyOf(result);
    }
}
