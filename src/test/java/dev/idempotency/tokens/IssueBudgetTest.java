package dev.idempotency.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token endpoint's bounds, on a hand-moved clock. */
class IssueBudgetTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final IssueBudget budget = new IssueBudget(3, 5, Duration.ofMinutes(10), now::get);

    @Test
    void oneOwnerGetsAtMostItsShareWithinALifetime() {
        for (int i = 0; i < 3; i++) {
            assertThat(budget.take("anonymous")).isEmpty();
        }
        assertThat(budget.take("anonymous")).hasValue(Duration.ofMinutes(10));
        now.addAndGet(Duration.ofMinutes(4).toNanos());
        assertThat(budget.take("anonymous")).hasValue(Duration.ofMinutes(6));
        assertThat(budget.take("bob")).as("another owner is not held back").isEmpty();
        now.addAndGet(Duration.ofMinutes(6).toNanos());
        assertThat(budget.take("anonymous"))
                .as("the first tokens' lifetime ended")
                .isEmpty();
    }

    @Test
    void allOwnersTogetherGetAtMostTheTotal() {
        for (int i = 0; i < 5; i++) {
            assertThat(budget.take("owner-" + i)).isEmpty();
        }
        assertThat(budget.take("owner-new")).isPresent();
        now.addAndGet(Duration.ofMinutes(10).toNanos());
        for (int i = 0; i < 5; i++) {
            assertThat(budget.take("later-" + i)).isEmpty();
        }
    }

    @Test
    void theBoundsAreReadFromConfigAndNameTheKey() {
        assertThat(TokenSettings.from(
                                dev.idempotency.spi.ConfigLookup.of(java.util.Map.of(TokenSettings.MAX_PER_OWNER, "1")))
                        .issueBudget()
                        .take("a"))
                .isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TokenSettings.from(
                        dev.idempotency.spi.ConfigLookup.of(java.util.Map.of(TokenSettings.MAX_TOTAL, "0"))))
                .hasMessageContaining(TokenSettings.MAX_TOTAL);
    }
}
