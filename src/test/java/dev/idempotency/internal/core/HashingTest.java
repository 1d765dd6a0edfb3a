package dev.idempotency.internal.core;

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
    void theStoreKeyFormatIsPinnedBecauseStoredRecordsDependOnIt() {
        // 4-byte big-endian length, then the UTF-8 bytes, per part (computed independently with Python's hashlib).
        assertThat(RecordKey.of("orders.place", "", "[\"key-1\"]").storeKey())
                .isEqualTo("91345c6417fa8115146988267088771990faf10532075c93030827c966da2482");
    }

    @Test
    void aNamespaceGivesTheSameKeysAsOf() {
        RecordKey.Namespace orders = RecordKey.namespace("orders.place", "");
        // The pinned vector above, through the namespace the interceptor uses.
        assertThat(orders.key("[\"key-1\"]").storeKey())
                .isEqualTo("91345c6417fa8115146988267088771990faf10532075c93030827c966da2482");
        for (String key : new String[] {"", "k", "é-ключ-🔑", "a".repeat(300)}) {
            assertThat(RecordKey.namespace("ops.é", "tenant-7").key(key))
                    .isEqualTo(RecordKey.of("ops.é", "tenant-7", key));
            assertThat(orders.key(key)).isEqualTo(RecordKey.of("orders.place", "", key));
        }
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

    @Test
    void anApplicationNameMakesItsOwnKeysAndNoNameKeepsTheEarlierOnes() {
        // idempotency.application=orders: the domain, the name, then the three earlier parts (Python's hashlib).
        assertThat(RecordKey.of("orders", "POST /orders", "principal:alice", "k-1")
                        .storeKey())
                .isEqualTo("1ac633141ccc7e1ab0cf70c59d0d3c56049010dc6369305bf3cc9d58f2267baa");
        assertThat(RecordKey.namespace("orders", "POST /orders", "principal:alice")
                        .key("k-1"))
                .isEqualTo(RecordKey.of("orders", "POST /orders", "principal:alice", "k-1"));
        // No name: byte-identical to the pinned vector above.
        assertThat(RecordKey.of("", "orders.place", "", "[\"key-1\"]").storeKey())
                .isEqualTo("91345c6417fa8115146988267088771990faf10532075c93030827c966da2482");
        RecordKey unnamed = RecordKey.of("POST /orders", "anonymous", "k-1");
        assertThat(RecordKey.of("billing", "POST /orders", "anonymous", "k-1").storeKey())
                .isNotEqualTo(unnamed.storeKey())
                .isNotEqualTo(RecordKey.of("orders", "POST /orders", "anonymous", "k-1")
                        .storeKey());
        // The operation text, in logs and metrics, stays the route.
        assertThat(RecordKey.of("billing", "POST /orders", "anonymous", "k-1").operation())
                .isEqualTo("POST /orders");
    }
}
