package dev.idempotency.internal.stores.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.Participation;
import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.BoundStore;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.IdempotencyStore;
import dev.idempotency.spi.MutableClock;
import dev.idempotency.spi.Races;
import dev.idempotency.spi.RecordStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The memory store's bound: new claims are refused when full; nothing live is ever evicted. */
class MemoryStoreSettingsTest {

    private static final Duration LONG = Duration.ofMinutes(10);
    private static final Duration SHORT = Duration.ofSeconds(1);
    private static final long RECORD = MemoryIdempotencyStore.RECORD_OVERHEAD_BYTES;

    private final MutableClock clock = new MutableClock();
    private final AtomicInteger keys = new AtomicInteger();

    private String key() {
        return Hashing.sha256Hex("limits-" + keys.incrementAndGet());
    }

    @Test
    void aFullStoreRefusesNewKeysButServesTheKeysItHolds() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(clock, new MemoryStoreSettings(3, Long.MAX_VALUE));
        String a = key();
        String b = key();
        String c = key();
        assertThat(store.claim(a, "o", "fp", LONG).claimed()).isTrue();
        assertThat(store.claim(b, "o", "fp", LONG).claimed()).isTrue();
        assertThat(store.claim(c, "o", "fp", LONG).claimed()).isTrue();

        assertThatThrownBy(() -> store.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining(MemoryStoreSettings.MAX_ENTRIES + "=3")
                .hasMessageContaining("did not run");

        // A repeat of a held key still gets its record, and the owner still completes it.
        assertThat(store.claim(a, "other", "fp", LONG).record().owner()).isEqualTo("o");
        assertThat(store.complete(a, "o", new byte[] {1}, LONG)).isTrue();
        assertThat(store.claim(a, "other", "fp", LONG).record().status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(store.read(b)).as("nothing live was evicted").isPresent();
        assertThat(store.read(c)).isPresent();
        assertThat(store.size()).isEqualTo(3);

        // Giving a key back frees its slot.
        assertThat(store.release(b, "o")).isTrue();
        assertThat(store.claim(key(), "o", "fp", LONG).claimed()).isTrue();
    }

    @Test
    void recordsThatAreNoLongerLiveAreDroppedToMakeRoom() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(clock, new MemoryStoreSettings(2, Long.MAX_VALUE));
        String done = key();
        String running = key();
        store.claim(done, "o", "fp", LONG);
        store.complete(done, "o", new byte[] {1}, SHORT);
        store.claim(running, "o", "fp", LONG);
        assertThatThrownBy(() -> store.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class);

        clock.advance(SHORT.plusSeconds(1));
        String next = key();
        assertThat(store.claim(next, "o", "fp", LONG).claimed())
                .as("the expired outcome made room")
                .isTrue();
        assertThat(store.read(running)).as("the live claim stayed").isPresent();
        assertThat(store.size()).isEqualTo(2);
    }

    @Test
    void bytesAreBoundedAndCompletionsAreNeverRefused() {
        MemoryIdempotencyStore store =
                new MemoryIdempotencyStore(clock, new MemoryStoreSettings(100, 2 * RECORD + 200));
        String a = key();
        String b = key();
        store.claim(a, "o", "fp", LONG);
        store.claim(b, "o", "fp", LONG);
        assertThat(store.complete(a, "o", new byte[150], LONG)).isTrue();
        assertThat(store.bytes()).isEqualTo(2 * RECORD + 150);

        assertThatThrownBy(() -> store.claim(key(), "o", "fp", LONG))
                .as("a third record would pass the byte limit")
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining(MemoryStoreSettings.MAX_BYTES);
        assertThat(store.complete(b, "o", new byte[500], LONG))
                .as("an outcome is stored even past the limit: the operation already ran")
                .isTrue();
        assertThat(store.bytes()).isEqualTo(2 * RECORD + 650);

        clock.advance(LONG.plusSeconds(1));
        assertThat(store.claim(key(), "o", "fp", LONG).claimed()).isTrue();
        assertThat(store.bytes()).isEqualTo(RECORD);
    }

    @Test
    void concurrentClaimsNeverOvershootTheLimit() throws Exception {
        int limit = 100;
        MemoryIdempotencyStore store =
                new MemoryIdempotencyStore(clock, new MemoryStoreSettings(limit, Long.MAX_VALUE));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Object> outcomes = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                outcomes.addAll(Races.race(
                        pool, 16, () -> store.claim(key(), "o", "fp", LONG).claimed()));
            }
            long claimed = outcomes.stream().filter(Boolean.TRUE::equals).count();
            long refused = outcomes.stream()
                    .filter(o -> o instanceof IdempotencyStoreUnavailableException)
                    .count();
            assertThat(claimed).isEqualTo(limit);
            assertThat(refused).isEqualTo(320 - limit);
            assertThat(store.size()).isEqualTo(limit);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }

    @Test
    void refusalsAreLoggedAsOneWarningPerInterval() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(clock, new MemoryStoreSettings(1, Long.MAX_VALUE));
        Logger log = Logger.getLogger(MemoryIdempotencyStore.class.getName());
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        log.addHandler(capture);
        try {
            store.claim(key(), "o", "fp", LONG);
            for (int i = 0; i < 50; i++) {
                assertThatThrownBy(() -> store.claim(key(), "o", "fp", LONG))
                        .isInstanceOf(IdempotencyStoreUnavailableException.class);
            }
        } finally {
            log.removeHandler(capture);
        }
        assertThat(records).hasSize(1);
        assertThat(records.get(0).getLevel()).isEqualTo(Level.WARNING);
        assertThat(records.get(0).getMessage()).contains("full");
    }

    @Test
    void theLimitsAreReadFromConfigAndBadValuesNameTheKey() {
        assertThat(MemoryStoreSettings.from(ConfigLookup.none())).isEqualTo(MemoryStoreSettings.DEFAULT);
        assertThat(MemoryStoreSettings.from(ConfigLookup.of(
                        Map.of(MemoryStoreSettings.MAX_ENTRIES, "5000", MemoryStoreSettings.MAX_BYTES, "1048576"))))
                .isEqualTo(new MemoryStoreSettings(5000, 1048576));
        assertThatThrownBy(() ->
                        MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.MAX_ENTRIES, "lots"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(MemoryStoreSettings.MAX_ENTRIES);
        assertThatThrownBy(() -> MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.MAX_BYTES, "0"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(MemoryStoreSettings.MAX_BYTES);
        assertThat(MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.CLAIM_GRACE, "PT10M")))
                        .claimGrace())
                .isEqualTo(java.time.Duration.ofMinutes(10));
        assertThatThrownBy(() ->
                        MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.CLAIM_GRACE, "soon"))))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(MemoryStoreSettings.CLAIM_GRACE);
    }

    @Test
    void aFloodOfNewKeysOnOneOperationLeavesRoomForTheOthers() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(
                clock, new MemoryStoreSettings(10, Long.MAX_VALUE, MemoryStoreSettings.DEFAULT_CLAIM_GRACE, 0.5));
        IdempotencyStore flooded = BoundStore.of(store, "POST /orders", Participation.SEPARATE);
        IdempotencyStore other = BoundStore.of(store, "refunds.create", Participation.SEPARATE);
        List<String> held = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String k = key();
            assertThat(flooded.claim(k, "o", "fp", LONG).claimed()).isTrue();
            held.add(k);
        }
        assertThatThrownBy(() -> flooded.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("'POST /orders' holds its share")
                .hasMessageContaining(MemoryStoreSettings.OPERATION_SHARE + "=0.5")
                .hasMessageContaining("did not run");
        for (int i = 0; i < 5; i++) {
            assertThat(other.claim(key(), "o", "fp", LONG).claimed())
                    .as("claim %d of the other operation", i)
                    .isTrue();
        }
        // A key the flooded operation holds still replays, and one it gives back frees its slot.
        assertThat(flooded.claim(held.get(0), "again", "fp", LONG).claimed()).isFalse();
        assertThat(flooded.release(held.get(1), "o")).isTrue();
        assertThat(flooded.claim(key(), "o", "fp", LONG).claimed()).isTrue();
    }

    @Test
    void anOperationsExpiredRecordsAreDroppedToMakeRoomInItsShare() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(
                clock, new MemoryStoreSettings(4, Long.MAX_VALUE, MemoryStoreSettings.DEFAULT_CLAIM_GRACE, 0.5));
        IdempotencyStore op = BoundStore.of(store, "charge", Participation.SEPARATE);
        String a = key();
        String b = key();
        assertThat(op.claim(a, "o", "fp", LONG).claimed()).isTrue();
        assertThat(op.claim(b, "o", "fp", LONG).claimed()).isTrue();
        assertThat(op.complete(a, "o", new byte[] {1}, SHORT)).isTrue();
        assertThat(op.complete(b, "o", new byte[] {1}, SHORT)).isTrue();
        assertThatThrownBy(() -> op.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class);
        clock.advance(SHORT.plusSeconds(1));
        assertThat(op.claim(key(), "o", "fp", LONG).claimed())
                .as("the expired records were purged and uncounted")
                .isTrue();
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void anOperationsShareCountsTheBytesOfItsStoredOutcomes() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(
                clock, new MemoryStoreSettings(100, 4 * RECORD + 1000, MemoryStoreSettings.DEFAULT_CLAIM_GRACE, 0.5));
        IdempotencyStore op = BoundStore.of(store, "charge", Participation.SEPARATE);
        String a = key();
        assertThat(op.claim(a, "o", "fp", LONG).claimed()).isTrue();
        assertThat(op.complete(a, "o", new byte[1000], LONG)).isTrue();
        // 400 + 1000 bytes held of a share of 2 * 400 + 500: the next record does not fit.
        assertThatThrownBy(() -> op.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("holds its share");
        assertThat(BoundStore.of(store, "other", Participation.SEPARATE)
                        .claim(key(), "o", "fp", LONG)
                        .claimed())
                .isTrue();
        assertThat(store.deleteCompleted(a, "o")).isTrue();
        assertThat(op.claim(key(), "o", "fp", LONG).claimed()).isTrue();
    }

    @Test
    void theOperationShareIsAFractionAboveZeroAndAtMostOne() {
        assertThat(MemoryStoreSettings.from(ConfigLookup.none()).operationShare())
                .isEqualTo(MemoryStoreSettings.DEFAULT_OPERATION_SHARE);
        assertThat(MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.OPERATION_SHARE, "1")))
                        .operationShare())
                .isEqualTo(1.0);
        for (String bad : List.of("0", "-0.5", "1.5", "half", "NaN")) {
            assertThatThrownBy(() ->
                            MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.OPERATION_SHARE, bad))))
                    .as(bad)
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining(MemoryStoreSettings.OPERATION_SHARE);
        }
    }

    @Test
    void theCallerShareIsAFractionAboveZeroAndAtMostOne() {
        assertThat(MemoryStoreSettings.from(ConfigLookup.none()).callerShare())
                .isEqualTo(MemoryStoreSettings.DEFAULT_CALLER_SHARE);
        MemoryStoreSettings read =
                MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.CALLER_SHARE, " 0.25 ")));
        assertThat(read.callerShare()).isEqualTo(0.25);
        assertThat(read.operationShare())
                .as("the caller share leaves the operation share alone")
                .isEqualTo(MemoryStoreSettings.DEFAULT_OPERATION_SHARE);
        assertThat(MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.CALLER_SHARE, "1")))
                        .callerShare())
                .isEqualTo(1.0);
        for (String bad : List.of("0", "-0.1", "1.01", "a tenth", "NaN", "Infinity")) {
            assertThatThrownBy(() ->
                            MemoryStoreSettings.from(ConfigLookup.of(Map.of(MemoryStoreSettings.CALLER_SHARE, bad))))
                    .as(bad)
                    .isInstanceOf(IdempotencyConfigurationException.class)
                    .hasMessageContaining("'" + MemoryStoreSettings.CALLER_SHARE + "'")
                    .hasMessageContaining("fraction above 0 and at most 1");
        }
        assertThatThrownBy(() -> new MemoryStoreSettings(10, 1000, LONG, 0.5, 0))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(MemoryStoreSettings.CALLER_SHARE);
    }

    @Test
    void withAShareOfOneAnOperationMayFillTheStore() {
        MemoryIdempotencyStore store = new MemoryIdempotencyStore(
                clock, new MemoryStoreSettings(3, Long.MAX_VALUE, MemoryStoreSettings.DEFAULT_CLAIM_GRACE, 1));
        IdempotencyStore op = BoundStore.of(store, "charge", Participation.SEPARATE);
        for (int i = 0; i < 3; i++) {
            assertThat(op.claim(key(), "o", "fp", LONG).claimed()).isTrue();
        }
        assertThatThrownBy(() -> op.claim(key(), "o", "fp", LONG))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining(MemoryStoreSettings.MAX_ENTRIES + "=3");
    }
}
