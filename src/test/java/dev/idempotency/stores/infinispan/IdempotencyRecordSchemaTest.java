package dev.idempotency.stores.infinispan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.time.Instant;
import org.infinispan.protostream.ProtobufUtil;
import org.infinispan.protostream.SerializationContext;
import org.junit.jupiter.api.Test;

/**
 * The hand-written ProtoStream marshaller round-trips every field, and records that differ only in
 * "no outcome" versus "empty outcome" stay different: conditional replace/remove on another node
 * compare the unmarshalled record with {@link IdempotencyRecord#equals}.
 */
class IdempotencyRecordSchemaTest {

    private final SerializationContext ctx = ProtobufUtil.newSerializationContext();

    IdempotencyRecordSchemaTest() {
        new IdempotencyRecordSchema().register(ctx);
    }

    private IdempotencyRecord roundTrip(IdempotencyRecord r) throws Exception {
        byte[] bytes = ProtobufUtil.toWrappedByteArray(ctx, r);
        return (IdempotencyRecord) ProtobufUtil.fromWrappedByteArray(ctx, bytes);
    }

    @Test
    void everyFieldSurvives() throws Exception {
        Instant at = Instant.parse("2026-03-01T10:15:30.123456789Z");
        byte[] outcome = new byte[1024];
        for (int i = 0; i < outcome.length; i++) {
            outcome[i] = (byte) i;
        }
        IdempotencyRecord done =
                new IdempotencyRecord("k".repeat(64), RecordStatus.COMPLETED, "owner", "fp", at, outcome);
        IdempotencyRecord back = roundTrip(done);
        assertThat(back).isEqualTo(done);
        assertThat(back.expiresAt()).isEqualTo(at);
        assertThat(back.outcome()).isEqualTo(outcome);
    }

    @Test
    void noOutcomeAndAnEmptyOutcomeStayDistinct() throws Exception {
        Instant at = Instant.parse("2026-03-01T10:15:30Z");
        IdempotencyRecord claim = new IdempotencyRecord("a", RecordStatus.IN_PROGRESS, "o", "fp", at, null);
        IdempotencyRecord empty = new IdempotencyRecord("a", RecordStatus.COMPLETED, "o", "fp", at, new byte[0]);
        assertThat(roundTrip(claim).outcome()).isNull();
        assertThat(roundTrip(claim)).isEqualTo(claim);
        assertThat(roundTrip(empty).outcome()).isEmpty();
        assertThat(roundTrip(empty)).isEqualTo(empty).isNotEqualTo(claim);
    }

    @Test
    void beforeTheEpochAndFarFutureInstantsSurvive() throws Exception {
        for (Instant at :
                new Instant[] {Instant.parse("1960-01-01T00:00:00.5Z"), Instant.parse("2400-01-01T00:00:00Z")}) {
            IdempotencyRecord r = new IdempotencyRecord("a", RecordStatus.IN_PROGRESS, "o", "fp", at, null);
            assertThat(roundTrip(r).expiresAt()).isEqualTo(at);
        }
    }
}
