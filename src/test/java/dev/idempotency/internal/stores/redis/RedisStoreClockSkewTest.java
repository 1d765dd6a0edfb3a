package dev.idempotency.internal.stores.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.core.Hashing;
import dev.idempotency.spi.ClaimResult;
import dev.idempotency.spi.ConfigLookup;
import dev.idempotency.spi.RecordStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one Redis, the second with its clock 25 hours ahead: it takes over neither a COMPLETED
 * record within its 24-hour retention nor a running claim of the first node.
 */
@Tag("services")
class RedisStoreClockSkewTest {

    private static final String PREFIX =
            "idempotency-skew-" + ProcessHandle.current().pid() + ":";

    @Test
    void aNodeWhoseClockRunsAheadTakesNothingOverEarly() {
        RedisServers.requireMachineRedis();
        RedisStoreSettings settings =
                RedisStoreSettings.from(ConfigLookup.of(Map.of(RedisStoreSettings.KEY_PREFIX, PREFIX)));
        try (RedisIdempotencyStore honest =
                        new RedisIdempotencyStore(RedisStores.client(settings), settings, Clock.systemUTC(), true);
                RedisIdempotencyStore ahead = new RedisIdempotencyStore(
                        RedisStores.client(settings),
                        settings,
                        Clock.offset(Clock.systemUTC(), Duration.ofHours(25)),
                        true)) {
            String completed = Hashing.sha256Hex("skew-completed-" + System.nanoTime());
            String running = Hashing.sha256Hex("skew-running-" + System.nanoTime());
            try {
                assertThat(honest.claim(completed, "first", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();
                assertThat(honest.complete(completed, "first", new byte[] {1}, Duration.ofHours(24)))
                        .isTrue();
                assertThat(honest.claim(running, "first", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .isTrue();

                ClaimResult repeat = ahead.claim(completed, "second", "fp", Duration.ofMinutes(1));
                assertThat(repeat.claimed())
                        .as("the repeat of the completed key is claimed")
                        .isFalse();
                assertThat(repeat.record().status()).isEqualTo(RecordStatus.COMPLETED);
                assertThat(ahead.claim(running, "second", "fp", Duration.ofMinutes(1))
                                .claimed())
                        .as("the running key is taken over")
                        .isFalse();
                assertThat(honest.complete(running, "first", new byte[] {2}, Duration.ofHours(24)))
                        .as("the first node still completes its claim")
                        .isTrue();
            } finally {
                honest.client().del(honest.redisKey(completed));
                honest.client().del(honest.redisKey(running));
            }
        }
    }
}
