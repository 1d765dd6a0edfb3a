\set i random(1, 20000)
INSERT INTO idempotency_record (idem_key, status, owner_token, fingerprint, expires_at, outcome, created_at, updated_at) VALUES (encode(sha256(:i::text::bytea),'hex'), 'IN_PROGRESS', 'x', 'y', 1, NULL, 1, 1) ON CONFLICT DO NOTHING;
