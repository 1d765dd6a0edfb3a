-- idempotency-ee JPA store, Apache Derby 10.x. Instants are epoch milliseconds (BIGINT).
-- Derby has no CREATE TABLE IF NOT EXISTS: the store runs this only when the table is missing.
CREATE TABLE idempotency_record (
    idem_key    VARCHAR(64)  NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    owner_token VARCHAR(128) NOT NULL,
    fingerprint VARCHAR(128) NOT NULL,
    expires_at  BIGINT       NOT NULL,
    outcome     BLOB,
    created_at  BIGINT       NOT NULL,
    updated_at  BIGINT       NOT NULL,
    CONSTRAINT idempotency_record_pk PRIMARY KEY (idem_key)
);
CREATE INDEX idempotency_record_expires ON idempotency_record (expires_at);
