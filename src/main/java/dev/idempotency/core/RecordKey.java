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

    /** The first 12 hex characters of the store key: enough to correlate logs, useless to an attacker. */
    public String hash() {
        return storeKey.substring(0, 12);
    }

    @Override
    public String toString() {
        return operation + "#" + hash();
    }
}
