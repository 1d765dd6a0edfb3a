package dev.idempotency.stores.jpa;

import dev.idempotency.spi.IdempotencyRecord;
import dev.idempotency.spi.RecordStatus;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One row of the {@value #TABLE} table: an {@link IdempotencyRecord} as the JPA store keeps it.
 *
 * <p>Portable JPA only. Instants are stored as epoch milliseconds in {@code BIGINT} columns, which
 * every database compares the same way whatever the session time zone (a {@code TIMESTAMP} would be
 * read back shifted on MariaDB/MySQL sessions with another zone). The outcome is a plain {@code byte[]}
 * without {@code @Lob}, so that it maps to {@code bytea} on PostgreSQL (not a large-object {@code oid})
 * and to {@code LONGBLOB} / {@code VARBINARY} elsewhere. The DDL ships in {@code
 * META-INF/idempotency/jpa/<database>.sql}.
 */
@Entity(name = "IdempotencyRecord")
@Table(name = IdempotencyRecordEntity.TABLE)
public class IdempotencyRecordEntity {

    /** The table name. */
    public static final String TABLE = "idempotency_record";

    @Id
    @Column(name = "idem_key", length = 64, nullable = false)
    private String recordKey;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", length = 16, nullable = false)
    private RecordStatus status;

    @Column(name = "owner_token", length = 128, nullable = false)
    private String owner;

    @Column(name = "fingerprint", length = 128, nullable = false)
    private String fingerprint;

    @Column(name = "expires_at", nullable = false)
    private long expiresAt;

    @Column(name = "outcome")
    private byte[] outcome;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    /** For the JPA provider. */
    protected IdempotencyRecordEntity() {}

    /** A new row holding {@code record}, created at {@code now}. */
    IdempotencyRecordEntity(IdempotencyRecord record, Instant now) {
        this.recordKey = record.key();
        this.createdAt = now.toEpochMilli();
        set(record, now);
    }

    /** Overwrites every field but the key and the creation time with {@code record}'s. */
    void set(IdempotencyRecord record, Instant now) {
        this.status = record.status();
        this.owner = record.owner();
        this.fingerprint = record.fingerprint();
        this.expiresAt = record.expiresAt().toEpochMilli();
        this.outcome = record.outcome();
        this.updatedAt = now.toEpochMilli();
    }

    /** A takeover of an ended lease or retention is a new record: its creation time restarts. */
    void replace(IdempotencyRecord record, Instant now) {
        this.createdAt = now.toEpochMilli();
        set(record, now);
    }

    /** The record this row holds. */
    IdempotencyRecord toRecord() {
        return new IdempotencyRecord(
                recordKey,
                status,
                owner,
                fingerprint,
                Instant.ofEpochMilli(expiresAt),
                outcome,
                Instant.ofEpochMilli(createdAt));
    }

    /** The namespaced key (the primary key). */
    public String getRecordKey() {
        return recordKey;
    }

    /** IN_PROGRESS or COMPLETED. */
    public RecordStatus getStatus() {
        return status;
    }

    /** When the row was created or last taken over, in epoch milliseconds. */
    public long getCreatedAt() {
        return createdAt;
    }

    /** When the row was last written, in epoch milliseconds. */
    public long getUpdatedAt() {
        return updatedAt;
    }

    /** When the record stops being live (lease end or end of retention), in epoch milliseconds. */
    public long getExpiresAt() {
        return expiresAt;
    }
}
