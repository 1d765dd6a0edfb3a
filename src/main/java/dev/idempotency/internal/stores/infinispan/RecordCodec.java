package dev.idempotency.internal.stores.infinispan;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The binary form of records in the RAFT log, its snapshots and its answers. Every field is written
 * as it is, so a record read back {@link IdempotencyRecord#equals equals} the one written, and "no
 * outcome" stays distinct from an empty one.
 */
final class RecordCodec {

    private RecordCodec() {}

    static void writeRecord(DataOutput out, IdempotencyRecord r) throws IOException {
        writeString(out, r.key());
        out.writeByte(r.status().ordinal());
        writeString(out, r.owner());
        writeString(out, r.fingerprint());
        writeInstant(out, r.expiresAt());
        writeBytes(out, r.outcome());
        out.writeBoolean(r.createdAt() != null);
        if (r.createdAt() != null) {
            writeInstant(out, r.createdAt());
        }
    }

    static IdempotencyRecord readRecord(DataInput in) throws IOException {
        String key = readString(in);
        RecordStatus status = RecordStatus.values()[in.readByte()];
        String owner = readString(in);
        String fingerprint = readString(in);
        Instant expiresAt = readInstant(in);
        byte[] outcome = readBytes(in);
        Instant createdAt = in.readBoolean() ? readInstant(in) : null;
        return new IdempotencyRecord(key, status, owner, fingerprint, expiresAt, outcome, createdAt);
    }

    /** A record or {@code null}. */
    static void writeOptionalRecord(DataOutput out, IdempotencyRecord r) throws IOException {
        out.writeBoolean(r != null);
        if (r != null) {
            writeRecord(out, r);
        }
    }

    static IdempotencyRecord readOptionalRecord(DataInput in) throws IOException {
        return in.readBoolean() ? readRecord(in) : null;
    }

    static void writeString(DataOutput out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static String readString(DataInput in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    /** Bytes or {@code null} (length -1). */
    static void writeBytes(DataOutput out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    static byte[] readBytes(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    static void writeInstant(DataOutput out, Instant t) throws IOException {
        out.writeLong(t.getEpochSecond());
        out.writeInt(t.getNano());
    }

    static Instant readInstant(DataInput in) throws IOException {
        return Instant.ofEpochSecond(in.readLong(), in.readInt());
    }
}
