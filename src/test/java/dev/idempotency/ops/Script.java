package dev.idempotency.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.IdempotencyKeyMismatchException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The scripted sequence of issue 15: 2 executions, 3 replays, 1 conflict (409), 1 mismatch (422). */
final class Script {

    private Script() {}

    static void run(Charges charges, String prefix) throws Exception {
        String a = prefix + "-a";
        String b = prefix + "-b";
        assertThat(charges.charge(a, 1)).isEqualTo(a + ":1");
        CountDownLatch running = charges.hold();
        CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> {
            try {
                return charges.charge(b, 1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(running.await(60, TimeUnit.SECONDS))
                .as("the held call started")
                .isTrue();
        assertThatThrownBy(() -> charges.charge(b, 1)).isInstanceOf(IdempotencyInProgressException.class);
        charges.let();
        assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo(b + ":1");
        for (int i = 0; i < 3; i++) {
            assertThat(charges.charge(a, 1)).isEqualTo(a + ":1");
        }
        assertThatThrownBy(() -> charges.charge(a, 2)).isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThat(charges.runs()).isEqualTo(2);
    }
}
