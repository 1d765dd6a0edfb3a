\set i random(1, 20000)
SELECT FALSE, status, owner_token, fingerprint, expires_at, outcome, created_at FROM idempotency_record WHERE idem_key = encode(sha256(:i::text::bytea),'hex');
