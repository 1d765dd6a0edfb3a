package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.TestServices;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.RecordStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The owner's completion is one round trip, a compare-and-set against the bytes its claim wrote, and
 * still a fenced one: counted with Redis's own command statistics on a Redis of this test's.
 */
@Tag("services")
class RedisCompletionRoundTripsTest {

    private static final int PORT = TestServices.port(7731);
    private static RedisIdempotencyStore store;

    @BeforeAll
    static void start() {
        RedisServers.start(PORT);
        store = RedisStores.start(ConfigLookup.of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:" + PORT)));
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
        RedisServers.stop(PORT);
    }

    /** Calls of one command so far, from INFO commandstats. */
    private static long calls(String command) {
        String info = store.client().info("commandstats");
        Matcher m = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static long scripts() {
        return calls("eval") + calls("evalsha");
    }

    /**
     * GETs the client sent itself: commandstats also counts the commands a script runs, and the
     * compare-and-set script runs one GET.
     */
    private static long clientGets() {
        return calls("get") - scripts();
    }

    @Test
    void aClaimThenItsCompletionAreTwoCommands() {
        long scripts = scripts();
        long gets = clientGets();
        assertThat(store.claim("k-once", "owner-1", "fp", Duration.ofMinutes(1)).claimed())
                .isTrue();
        assertThat(store.complete("k-once", "owner-1", "done".getBytes(StandardCharsets.UTF_8), Duration.ofHours(1)))
                .isTrue();
        assertThat(scripts() - scripts).as("one compare-and-set").isEqualTo(1);
        assertThat(clientGets() - gets).as("no GET before the compare-and-set").isZero();
        assertThat(store.read("k-once")).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RecordStatus.COMPLETED);
            assertThat(new String(r.outcome(), StandardCharsets.UTF_8)).isEqualTo("done");
        });
        assertThat(store.remembered()).isZero();
    }

    @Test
    void aRenewedClaimCompletesInOneCommandToo() {
        assertThat(store.claim("k-renewed", "owner-2", "fp", Duration.ofMinutes(1))
                        .claimed())
                .isTrue();
        assertThat(store.renew("k-renewed", "owner-2", Duration.ofMinutes(2))).isTrue();
        long scripts = scripts();
        long gets = clientGets();
        assertThat(store.complete("k-renewed", "owner-2", new byte[] {1}, Duration.ofHours(1)))
                .isTrue();
        assertThat(scripts() - scripts).isEqualTo(1);
        assertThat(clientGets() - gets).isZero();
    }

    @Test
    void aClaimChangedSinceItWasWrittenIsDecidedOnWhatIsRead() {
        // Another node took the key over after this owner's lease ended; this owner's bytes are stale.
        assertThat(store.claim("k-taken", "owner-3", "fp", Duration.ofMillis(1)).claimed())
                .isTrue();
        RedisIdempotencyStore otherNode =
                RedisStores.start(ConfigLookup.of(Map.of(RedisStoreSettings.URI, "redis://127.0.0.1:" + PORT)));
        try {
            RedisServers.await(Duration.ofSeconds(10), "the 1 ms lease to end on Redis's clock", () -> otherNode
                    .claim("k-taken", "owner-4", "fp", Duration.ofMinutes(1))
                    .claimed());
        } finally {
            otherNode.close();
        }
        assertThat(store.complete("k-taken", "owner-3", new byte[] {9}, Duration.ofHours(1)))
                .as("the stale owner's completion is fenced off")
                .isFalse();
        assertThat(store.read("k-taken")).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RecordStatus.IN_PROGRESS);
            assertThat(r.owner()).isEqualTo("owner-4");
        });
    }

    /**
     * Claims never completed by their owner (calls held after a timeout) fill the remembered bytes up to
     * a bound; beyond it a claim is not remembered, and its completion reads first, still correctly.
     */
    @Test
    void beyondTheBoundACompletionReadsFirst() {
        for (int i = store.remembered(); i < RedisIdempotencyStore.MAX_WRITTEN; i++) {
            assertThat(store.claim("held-" + i, "held-owner", "fp", Duration.ofMinutes(5))
                            .claimed())
                    .isTrue();
        }
        assertThat(store.remembered()).isEqualTo(RedisIdempotencyStore.MAX_WRITTEN);
        assertThat(store.claim("k-beyond", "owner-5", "fp", Duration.ofMinutes(1))
                        .claimed())
                .isTrue();
        assertThat(store.remembered()).isEqualTo(RedisIdempotencyStore.MAX_WRITTEN);
        long gets = clientGets();
        assertThat(store.complete("k-beyond", "owner-5", new byte[] {5}, Duration.ofHours(1)))
                .isTrue();
        assertThat(clientGets() - gets)
                .as("the completion read the record first")
                .isEqualTo(1);
        for (int i = 0; i < RedisIdempotencyStore.MAX_WRITTEN; i++) {
            store.release("held-" + i, "held-owner");
        }
        assertThat(store.remembered()).isZero();
    }
}
