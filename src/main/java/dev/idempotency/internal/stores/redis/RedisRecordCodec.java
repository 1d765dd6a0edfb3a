package dev.idempotency.internal.stores.redis;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The binary form of a record in Redis: compact, versioned, never Java serialization. The Redis key
 * is the record's key (with the configured prefix), so the key is not repeated in the value.
 *
 * <pre>
 *   byte    format version (1)
 *   byte    status: 0 IN_PROGRESS, 1 COMPLETED
 *   long    expiresAt, epoch seconds;  int  its nanoseconds
 *   byte    1 if createdAt follows, else 0;  long seconds, int nanos
 *   UTF     owner (modified UTF-8, as DataOutput.writeUTF)
 *   UTF     fingerprint
 *   int     outcome length, -1 when none;  the outcome's bytes
 * </pre>
 *
 * <p>The store compares values byte for byte (its compare-and-set), so one record has exactly one
 * encoding.
 */
final class RedisRecordCodec {

    static final byte VERSION = 1;

    private RedisRecordCodec() {}

    static byte[] encode(IdempotencyRecord r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + (r.outcome() == null ? 0 : r.outcome().length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(r.status() == RecordStatus.IN_PROGRESS ? 0 : 1);
            out.writeLong(r.expiresAt().getEpochSecond());
            out.writeInt(r.expiresAt().getNano());
            if (r.createdAt() == null) {
                out.writeByte(0);
            } else {
                out.writeByte(1);
                out.writeLong(r.createdAt().getEpochSecond());
                out.writeInt(r.createdAt().getNano());
            }
            out.writeUTF(r.owner());
            out.writeUTF(r.fingerprint());
            if (r.outcome() == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(r.outcome().length);
                out.write(r.outcome());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes a value read at {@code key}.
     *
     * @throws IllegalArgumentException the value is not a record of this format (another
     *     application's data under the store's key prefix, or a newer format)
     */
    static IdempotencyRecord decode(String key, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("format version " + version + ", this store reads " + VERSION);
            }
            RecordStatus status =
                    switch (in.readByte()) {
                        case 0 -> RecordStatus.IN_PROGRESS;
                        case 1 -> RecordStatus.COMPLETED;
                        default -> throw new IllegalArgumentException("unknown status");
                    };
            Instant expiresAt = Instant.ofEpochSecond(in.readLong(), in.readInt());
            Instant createdAt = in.readByte() == 1 ? Instant.ofEpochSecond(in.readLong(), in.readInt()) : null;
            String owner = in.readUTF();
            String fingerprint = in.readUTF();
            int length = in.readInt();
            byte[] outcome = null;
            if (length >= 0) {
                outcome = new byte[length];
                in.readFully(outcome);
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException("trailing bytes");
            }
            return new IdempotencyRecord(key, status, owner, fingerprint, expiresAt, outcome, createdAt);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "the value at this key is not an idempotency record (" + e.getMessage() + ")", e);
        }
    }
}
