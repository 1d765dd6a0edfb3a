package dev.idempotency.core;

import java.util.Map;
import java.util.Optional;

/**
 * Where configuration comes from: MicroProfile Config in a container, a map in unit tests. Keeps core
 * free of any container API.
 */
@FunctionalInterface
public interface Settings {

    /** The value of a key, or empty when it is not set. */
    Optional<String> get(String key);

    /** Settings backed by a map, for tests and programmatic use. */
    static Settings of(Map<String, String> values) {
        return key -> Optional.ofNullable(values.get(key));
    }

    /** No settings at all: every default applies. */
    static Settings none() {
        return key -> Optional.empty();
    }
}
