package dev.idempotency.internal.core;

import java.util.Objects;

/**
 * A namespaced key: the application, the operation, the caller's scope and the client's key. The store
 * sees only {@link #storeKey()}, a SHA-256 over all of them, so raw keys never reach the store or the
 * logs, and one caller's key can never address another caller's, another operation's or (when the
 * applications name themselves, {@code idempotency.application}) another application's record.
 *
 * @param operation the operation name
 * @param scope the caller scope (principal, tenant), or empty when operations are not scoped
 * @param storeKey 64 hex characters: SHA-256 of (application,) operation, scope and key
 */
public record RecordKey(String operation, String scope, String storeKey) {

    /** Checks the fields. */
    public RecordKey {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(storeKey, "storeKey");
    }

    /**
     * The first part of the hashed input when an application names itself: no operation name can make the
     * three-part input of an unnamed application equal to a five-part one (each part is length-prefixed).
     */
    static final String APPLICATION_DOMAIN = "idempotency-ee/application";

    /** Namespaces a client key of an application that does not name itself. */
    public static RecordKey of(String operation, String scope, String key) {
        return of("", operation, scope, key);
    }

    /**
     * Namespaces a client key.
     *
     * @param application the application's name ({@code idempotency.application}); empty: the key is
     *     the one earlier versions derived, {@code SHA-256(operation, scope, key)}
     */
    public static RecordKey of(String application, String operation, String scope, String key) {
        return namespace(application, operation, scope).key(key);
    }

    /** {@link #namespace(String, String, String)} of an application that does not name itself. */
    public static Namespace namespace(String operation, String scope) {
        return namespace("", operation, scope);
    }

    /**
     * The keys of one operation and scope: {@link Namespace#key} gives the same record key as {@link
     * #of}, with the application, the operation and the scope encoded once instead of on every call.
     */
    public static Namespace namespace(String application, String operation, String scope) {
        return new Namespace(application, operation, scope);
    }

    /** The record keys of one operation and scope; immutable and thread-safe. */
    public static final class Namespace {
        private final String operation;
        private final String scope;
        private final byte[] prefix;

        private Namespace(String application, String operation, String scope) {
            Objects.requireNonNull(application, "application");
            this.operation = Objects.requireNonNull(operation, "operation");
            this.scope = Objects.requireNonNull(scope, "scope");
            this.prefix = application.isEmpty()
                    ? Hashing.lengthPrefixed(operation, scope)
                    : Hashing.lengthPrefixed(APPLICATION_DOMAIN, application, operation, scope);
        }

        /** The record key of a client key in this namespace: {@code RecordKey.of(operation, scope, key)}. */
        public RecordKey key(String key) {
            return new RecordKey(operation, scope, Hashing.sha256Hex(prefix, key));
        }
    }

    /** The scope of an HTTP caller without a principal, under {@code idempotency.http.scope=principal}. */
    public static final String ANONYMOUS = "anonymous";

    /**
     * The caller this key belongs to, for per-caller bounds: the scope, or empty when the call has no
     * identified caller (an operation that is not scoped, or an anonymous principal: all such callers
     * of an operation count as the operation).
     */
    public String caller() {
        return scope.equals(ANONYMOUS) ? "" : scope;
    }

    /** The first 12 hex characters of the store key: enough to correlate logs, useless to an attacker. */
    public String hash() {
        return storeKey.substring(0, 12);
    }

    @Override
    public String toString() {
        return operation + "#" + hash();
    }
}
