package dev.idempotency.stores.jpa;

import dev.idempotency.spi.RecordStatus;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreRemove;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;

/**
 * A row of the JPA store's table {@value #TABLE}, for an application to query with its own JPA
 * provider (JPQL entity name {@code IdempotencyRecord}); docs/jpa-store.md, "Querying the records with
 * JPA". Read-only: only the store writes rows, with plain JDBC, so this class has no setters and refuses
 * persist, update and remove. It is not cached ({@code @Cacheable(false)}): a provider's shared cache
 * would keep serving a row after the store changed it. Instants are epoch milliseconds (the {@code
 * BIGINT} columns); the outcome is a plain {@code byte[]}, {@code bytea} on PostgreSQL. The mapping
 * matches the shipped DDL ({@code META-INF/idempotency/jpa/<database>.sql}), which is the source of the
 * table: leave schema generation off for it, or at most validate.
 */
@Entity(name = "IdempotencyRecord")
@Table(name = IdempotencyRecordEntity.TABLE)
@Cacheable(false)
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

    /** For the JPA provider: rows come from queries, never from this constructor. */
    protected IdempotencyRecordEntity() {}

    /** The store alone writes rows: a provider's persist, flush of a change or remove fails here. */
    @PrePersist
    @PreUpdate
    @PreRemove
    void refuseWrites() {
        throw new UnsupportedOperationException("Rows of " + TABLE + " are written by the idempotency store"
                + " only: IdempotencyRecordEntity is read-only. Query it; to release or delete a record, use the"
                + " store's repairs (RecordInspector, docs/operations.md, \"Inspection and repair\").");
    }

    /**
     * The namespaced key, the primary key: SHA-256 (64 lowercase hex digits) of the operation, the scope
     * and the client's key, so the client's key cannot be read back from it.
     */
    public String getRecordKey() {
        return recordKey;
    }

    /** IN_PROGRESS (claimed, running) or COMPLETED (outcome stored). */
    public RecordStatus getStatus() {
        return status;
    }

    /** When the key was claimed (or an ended record taken over), in epoch milliseconds. */
    public long getCreatedAt() {
        return createdAt;
    }

    /** When the row was last written (claimed, renewed, completed), in epoch milliseconds. */
    public long getUpdatedAt() {
        return updatedAt;
    }

    /**
     * When the record stops being live, in epoch milliseconds: the end of the lease while IN_PROGRESS,
     * the end of retention once COMPLETED.
     */
    public long getExpiresAt() {
        return expiresAt;
    }

    /** The size of the stored outcome in bytes; 0 while IN_PROGRESS, which has no outcome. */
    public int getStoredBytes() {
        return outcome == null ? 0 : outcome.length;
    }
}
