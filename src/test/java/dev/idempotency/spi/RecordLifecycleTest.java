package dev.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecordLifecycleTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aClaimIsLiveUntilItsLeaseEnds() {
        IdempotencyRecord c = RecordLifecycle.newClaim("k", "o", "fp", T0, Duration.ofSeconds(10));
        assertThat(c.status()).isEqualTo(RecordStatus.IN_PROGRESS);
        assertThat(c.expiresAt()).isEqualTo(T0.plusSeconds(10));
        assertThat(RecordLifecycle.isLive(c, T0.plusSeconds(9))).isTrue();
        assertThat(RecordLifecycle.isClaimable(c, T0.plusSeconds(10))).isTrue();
        assertThat(RecordLifecycle.isClaimable(null, T0)).isTrue();
        assertThat(RecordLifecycle.remaining(c, T0.plusSeconds(4))).isEqualTo(Duration.ofSeconds(6));
        assertThat(RecordLifecycle.remaining(c, T0.plusSeconds(40))).isEqualTo(Duration.ZERO);
    }

    @Test
    void completionKeepsTheFingerprintAndStartsRetention() {
        IdempotencyRecord c = RecordLifecycle.newClaim("k", "o", "fp", T0, Duration.ofSeconds(10));
        IdempotencyRecord done = RecordLifecycle.complete(c, new byte[] {1}, T0.plusSeconds(60), Duration.ofHours(1));
        assertThat(done.status()).isEqualTo(RecordStatus.COMPLETED);
        assertThat(done.fingerprint()).isEqualTo("fp");
        assertThat(done.expiresAt()).isEqualTo(T0.plusSeconds(3660));
        assertThat(RecordLifecycle.isOwnedBy(done, "o"))
                .as("a completed record has no owner")
                .isFalse();
        assertThatThrownBy(() -> RecordLifecycle.complete(done, new byte[0], T0, Duration.ofHours(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void ownershipIsByTokenNotByTime() {
        IdempotencyRecord c = RecordLifecycle.newClaim("k", "o", "fp", T0, Duration.ofSeconds(1));
        assertThat(RecordLifecycle.isOwnedBy(c, "o")).isTrue();
        assertThat(RecordLifecycle.isOwnedBy(c, "other")).isFalse();
        assertThat(RecordLifecycle.isOwnedBy(null, "o")).isFalse();
    }

    @Test
    void recordsNeverPrintTheirOutcome() {
        IdempotencyRecord c = RecordLifecycle.newClaim("k", "o", "fp", T0, Duration.ofSeconds(1));
        IdempotencyRecord done = RecordLifecycle.complete(c, "secret-card-number".getBytes(), T0, Duration.ofHours(1));
        assertThat(done.toString()).doesNotContain("secret").contains("18 bytes");
    }
}
