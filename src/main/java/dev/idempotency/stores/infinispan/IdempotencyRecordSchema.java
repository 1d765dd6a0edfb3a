package dev.idempotency.stores.infinispan;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.io.IOException;
import java.time.Instant;
import org.infinispan.protostream.FileDescriptorSource;
import org.infinispan.protostream.MessageMarshaller;
import org.infinispan.protostream.SerializationContext;
import org.infinispan.protostream.SerializationContextInitializer;

/**
 * The ProtoStream schema and marshaller of {@link IdempotencyRecord}, so records cross the cluster
 * (and state transfer) as a small protobuf message, never by Java serialization. Written by hand
 * rather than generated, because the annotation processor's output would trip the build's
 * warnings-as-errors rule and because the record type lives in the SPI, which must not depend on
 * ProtoStream annotations.
 *
 * <p>The message uses proto2 {@code optional} fields so that "no outcome" (an IN_PROGRESS claim)
 * and "an empty outcome" stay distinct after a round trip: {@link IdempotencyRecord#equals} tells
 * them apart, and Infinispan's conditional {@code replace}/{@code remove} compare with it.
 *
 * <p>The cache managers this module creates register it explicitly. It is also listed in {@code
 * META-INF/services/org.infinispan.protostream.SerializationContextInitializer}, so a clustered
 * {@code EmbeddedCacheManager} supplied by the application finds it too, unless that manager lists
 * its context initializers explicitly (then add {@code new IdempotencyRecordSchema()} to them).
 */
public final class IdempotencyRecordSchema implements SerializationContextInitializer {

    /** The protobuf file name the schema is registered under. */
    public static final String PROTO_FILE = "dev/idempotency/idempotency-record.proto";

    /** The protobuf message's full name. */
    public static final String MESSAGE = "dev.idempotency.IdempotencyRecord";

    static final String PROTO =
            """
            syntax = "proto2";
            package dev.idempotency;

            message IdempotencyRecord {
              optional string key = 1;
              optional string status = 2;
              optional string owner = 3;
              optional string fingerprint = 4;
              optional int64 expiresAtSeconds = 5;
              optional int32 expiresAtNanos = 6;
              optional bytes outcome = 7;
              optional int64 createdAtSeconds = 8;
              optional int32 createdAtNanos = 9;
            }
            """;

    /** Creates the initializer; it holds no state. */
    public IdempotencyRecordSchema() {}

    @Override
    public void registerSchema(SerializationContext ctx) {
        ctx.registerProtoFiles(FileDescriptorSource.fromString(PROTO_FILE, PROTO));
    }

    @Override
    public void registerMarshallers(SerializationContext ctx) {
        ctx.registerMarshaller(new RecordMarshaller());
    }

    /** Field by field; the status is written by name so that reordering the enum is harmless. */
    static final class RecordMarshaller implements MessageMarshaller<IdempotencyRecord> {

        @Override
        public Class<? extends IdempotencyRecord> getJavaClass() {
            return IdempotencyRecord.class;
        }

        @Override
        public String getTypeName() {
            return MESSAGE;
        }

        @Override
        public IdempotencyRecord readFrom(ProtoStreamReader reader) throws IOException {
            String key = reader.readString("key");
            String status = reader.readString("status");
            String owner = reader.readString("owner");
            String fingerprint = reader.readString("fingerprint");
            Long seconds = reader.readLong("expiresAtSeconds");
            Integer nanos = reader.readInt("expiresAtNanos");
            byte[] outcome = reader.readBytes("outcome");
            Long createdSeconds = reader.readLong("createdAtSeconds");
            Integer createdNanos = reader.readInt("createdAtNanos");
            if (key == null || status == null || seconds == null) {
                throw new IOException("an idempotency record in the cache lacks its key, status or expiry");
            }
            return new IdempotencyRecord(
                    key,
                    RecordStatus.valueOf(status),
                    owner,
                    fingerprint,
                    Instant.ofEpochSecond(seconds, nanos == null ? 0 : nanos),
                    outcome,
                    createdSeconds == null
                            ? null
                            : Instant.ofEpochSecond(createdSeconds, createdNanos == null ? 0 : createdNanos));
        }

        @Override
        public void writeTo(ProtoStreamWriter writer, IdempotencyRecord r) throws IOException {
            writer.writeString("key", r.key());
            writer.writeString("status", r.status().name());
            writer.writeString("owner", r.owner());
            writer.writeString("fingerprint", r.fingerprint());
            writer.writeLong("expiresAtSeconds", r.expiresAt().getEpochSecond());
            writer.writeInt("expiresAtNanos", r.expiresAt().getNano());
            if (r.outcome() != null) {
                writer.writeBytes("outcome", r.outcome());
            }
            if (r.createdAt() != null) {
                writer.writeLong("createdAtSeconds", r.createdAt().getEpochSecond());
                writer.writeInt("createdAtNanos", r.createdAt().getNano());
            }
        }
    }
}
