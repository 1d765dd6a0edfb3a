package dev.idempotency.core;

import java.util.Objects;

/**
 * A namespaced key: the operation, the caller's scope and the client's key. The store sees only
 * {@link #storeKey()}, a SHA-256 over all three, so raw keys never reach the store or the logs, and
 * one caller's key can never address another caller's or another operation's record.
 *
 * @param operation the operation name
 * @param scope the caller scope (principal, tenant), or empty when operations are not scoped
 * @param storeKey 64 hex characters: SHA-256 of operation, scope and key
 */
public record RecordKey(String operation, String scope, String storeKey) {

    /** Checks the fields. */
    public RecordKey {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(storeKey, "storeKey");
    }

    /** Namespaces a client key. */
    public static RecordKey of(String operation, String scope, String key) {
        return new RecordKey(operation, scope, Hashing.sha256Hex(operation, scope, key));
    }

    /**
     * The keys of one operation and scope: {@link #key} gives the same record key as {@link #of}, with
     * the operation and scope encoded once instead of on every call.
     */
    public static Namespace namespace(String operation, String scope) {
        return new Namespace(operation, scope);
    }

    /** The record keys of one operation and scope; immutable and thread-safe. */
    public static final class Namespace {
        private final String operation;
        private final String scope;
        private final byte[] prefix;

        private Namespace(String operation, String scope) {
            this.operation = Objects.requireNonNull(operation, "operation");
            this.scope = Objects.requireNonNull(scope, "scope");
            this.prefix = Hashing.lengthPrefixed(operation, scope);
        }

        /** The record key of a client key in this namespace: {@code RecordKey.of(operation, scope, key)}. */
        public RecordKey key(String key) {
            return new RecordKey(operation, scope, Hashing.sha256Hex(prefix, key));
        }
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
