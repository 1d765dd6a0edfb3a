-- idempotency-ee JPA store, PostgreSQL. Instants are epoch milliseconds (BIGINT).
CREATE TABLE IF NOT EXISTS idempotency_record (
    idem_key    VARCHAR(64)  NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    owner_token VARCHAR(128) NOT NULL,
    fingerprint VARCHAR(128) NOT NULL,
    expires_at  BIGINT       NOT NULL,
    outcome     BYTEA,
    created_at  BIGINT       NOT NULL,
    updated_at  BIGINT       NOT NULL,
    CONSTRAINT idempotency_record_pk PRIMARY KEY (idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_record_expires ON idempotency_record (expires_at);
