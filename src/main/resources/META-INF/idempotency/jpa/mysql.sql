-- idempotency-ee JPA store, MariaDB and MySQL (InnoDB). Instants are epoch milliseconds (BIGINT).
-- The key is ASCII with a binary collation: it is a lowercase hex hash, compared byte for byte.
CREATE TABLE IF NOT EXISTS idempotency_record (
    idem_key    VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    owner_token VARCHAR(128) NOT NULL,
    fingerprint VARCHAR(128) NOT NULL,
    expires_at  BIGINT       NOT NULL,
    outcome     LONGBLOB,
    created_at  BIGINT       NOT NULL,
    updated_at  BIGINT       NOT NULL,
    PRIMARY KEY (idem_key),
    INDEX idempotency_record_expires (expires_at)
) ENGINE = InnoDB;
