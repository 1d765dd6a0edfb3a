package dev.idempotency.internal.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyInProgressException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.Admission;
import dev.idempotency.internal.core.IdempotencyEngine;
import dev.idempotency.internal.core.OperationPolicy;
import dev.idempotency.internal.core.PolicyResolver;
import dev.idempotency.internal.core.RecordKey;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A request whose suspended response timed out holds its key; the work's late outcome ({@link
 * UnsettledRequest#resumedLate}) then settles it, whether it comes after the hold or before it, and is
 * ignored for a request that was settled otherwise.
 */
class UnsettledRequestTest {

    static class Resource {
        @Idempotent(name = "late.order")
        public void order() {}
    }

    private final IdempotencyEngine engine = new IdempotencyEngine(new MemoryIdempotencyStore());
    private final OperationPolicy policy = policy();
    private final RecordKey key = engine.key("late.order", "", UUID.randomUUID().toString());
    private final AtomicInteger rendered = new AtomicInteger();

    private static OperationPolicy policy() {
        try {
            Method m = Resource.class.getMethod("order");
            return new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private UnsettledRequest claimed() {
        Admission claim = engine.begin(policy, key, "fp");
        assertThat(claim).isInstanceOf(Admission.Owned.class);
        return new UnsettledRequest((Admission.Owned) claim, engine, null, "fp", status -> status >= 500);
    }

    private StoredResponse response(int status, String body) {
        rendered.incrementAndGet();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new StoredResponse(status, Map.of("Content-Type", List.of("text/plain")), bytes, true, bytes.length);
    }

    private String replayed() {
        Admission again = engine.begin(policy, key, "fp");
        assertThat(again).as("a repeat replays").isInstanceOf(Admission.Replay.class);
        return new String(
                StoredResponse.decode(((Admission.Replay) again).outcome()).body(), StandardCharsets.UTF_8);
    }

    @Test
    void aLateResponseAfterTheHoldIsStored() {
        UnsettledRequest request = claimed();
        request.hold();
        assertThatThrownBy(() -> engine.begin(policy, key, "fp"))
                .as("held while the work runs")
                .isInstanceOf(IdempotencyInProgressException.class);
        request.resumedLate(() -> response(201, "late"));
        assertThat(replayed()).isEqualTo("late");
    }

    @Test
    void aLateResponseBeforeTheHoldIsStoredByTheHold() {
        UnsettledRequest request = claimed();
        request.resumedLate(() -> response(201, "early"));
        assertThat(rendered)
                .as("not rendered before the timeout's response settled the request")
                .hasValue(0);
        request.hold();
        assertThat(replayed()).isEqualTo("early");
    }

    @Test
    void aLateFailureOrServerErrorGivesTheKeyBack() {
        UnsettledRequest failed = claimed();
        failed.hold();
        failed.resumedLate(() -> null);
        UnsettledRequest again = claimed(); // asserts the key is free
        again.hold();
        again.resumedLate(() -> response(500, "boom"));
        assertThat(engine.begin(policy, key, "fp")).isInstanceOf(Admission.Owned.class);
    }

    @Test
    void aLateOutcomeThatCannotBeReadKeepsTheKeyHeld() {
        UnsettledRequest request = claimed();
        request.hold();
        request.resumedLate(() -> {
            throw new IllegalStateException("no writer");
        });
        assertThatThrownBy(() -> engine.begin(policy, key, "fp"))
                .as("never released: the work ended, how is unknown")
                .isInstanceOf(IdempotencyInProgressException.class);
    }

    @Test
    void aLateOutcomeOfARequestSettledOtherwiseIsIgnored() {
        UnsettledRequest request = claimed();
        request.complete(response(201, "in time"));
        request.resumedLate(() -> response(201, "second resume"));
        request.hold();
        assertThat(replayed()).isEqualTo("in time");
        assertThat(rendered).hasValue(1);
    }

    @Test
    void onlyTheFirstLateOutcomeCounts() {
        UnsettledRequest request = claimed();
        request.hold();
        request.resumedLate(() -> response(201, "first"));
        request.resumedLate(() -> response(201, "second"));
        assertThat(replayed()).isEqualTo("first");
        assertThat(rendered).hasValue(1);
    }

    @Test
    void aReleaseAfterTheBodyOutlivedTheResponseHoldsUntilTheBodyEnds() {
        UnsettledRequest request = claimed();
        assertThat(request.bodyOutlivesResponse()).isTrue();
        request.release(dev.idempotency.internal.core.ReleaseCause.EXCEPTION);
        assertThatThrownBy(() -> engine.begin(policy, key, "fp"))
                .as("the timeout's 5xx holds the key while the body runs")
                .isInstanceOf(IdempotencyInProgressException.class);
        request.resumedLate(() -> response(201, "body"));
        assertThat(replayed()).isEqualTo("body");
    }

    @Test
    void aBodyThatEndedBeforeTheTimeoutsResponseIsStoredByIt() {
        UnsettledRequest request = claimed();
        request.resumedLate(() -> response(201, "ended first"));
        assertThat(request.bodyOutlivesResponse()).isTrue();
        request.release(dev.idempotency.internal.core.ReleaseCause.STATUS);
        assertThat(replayed()).isEqualTo("ended first");
    }

    @Test
    void withoutATimeoutAReleaseReleases() {
        UnsettledRequest request = claimed();
        request.release(dev.idempotency.internal.core.ReleaseCause.EXCEPTION);
        assertThat(engine.begin(policy, key, "fp")).as("released: a retry runs").isInstanceOf(Admission.Owned.class);
    }
}
