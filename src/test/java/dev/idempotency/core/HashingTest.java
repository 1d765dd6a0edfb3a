package dev.idempotency.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HashingTest {

    @Test
    void knownVector() {
        assertThat(Hashing.sha256Hex("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void partsAreLengthPrefixedSoBoundariesMatter() {
        assertThat(Hashing.sha256Hex("ab", "c")).isNotEqualTo(Hashing.sha256Hex("a", "bc"));
        assertThat(Hashing.sha256Hex("a", "b"))
                .isEqualTo(Hashing.sha256Hex("a", "b"))
                .hasSize(64);
    }

    @Test
    void recordKeysSeparateOperationsAndScopes() {
        RecordKey k = RecordKey.of("orders.place", "alice", "key-1");
        assertThat(k.storeKey()).hasSize(64).doesNotContain("key-1");
        assertThat(k.hash()).hasSize(12);
        assertThat(RecordKey.of("orders.place", "bob", "key-1").storeKey()).isNotEqualTo(k.storeKey());
        assertThat(RecordKey.of("orders.cancel", "alice", "key-1").storeKey()).isNotEqualTo(k.storeKey());
        assertThat(k.toString()).isEqualTo("orders.place#" + k.hash());
    }
}
