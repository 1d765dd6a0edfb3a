#!/usr/bin/env bash
# The PostgreSQL side of a duplicate claim, without Java: pgbench (prepared statements) runs, against a
# table of 20,000 COMPLETED records with the shipped columns and indexes, each of
#   floor.sql          INSERT ... ON CONFLICT DO NOTHING of an existing key (the JMH floor)
#   read.sql           a plain SELECT of the record
#   claim.sql          the store's PostgreSQL claim statement (Dialect.claim), for an existing key
#   lookup-first.sql   a variant that looks the key up before inserting
# at 1 and 4 clients, in two interleaved rounds, and prints transactions/s. It creates (and at the end
# drops) the database idempotency_pgbench on 127.0.0.1:5432.
#
#   bash bench/pg-claim.sh [seconds per run, default 5]
set -euo pipefail
dir="$(cd "$(dirname "$0")/pg" && pwd)"
seconds="${1:-5}"
db=idempotency_pgbench
psql() { command psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; }
psql -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
psql -d "$db" <<'SQL'
CREATE TABLE idempotency_record (idem_key VARCHAR(64) PRIMARY KEY, status VARCHAR(16) NOT NULL,
  owner_token VARCHAR(128) NOT NULL, fingerprint VARCHAR(128) NOT NULL, expires_at BIGINT NOT NULL,
  outcome BYTEA, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
CREATE INDEX idempotency_record_expires ON idempotency_record (expires_at);
INSERT INTO idempotency_record SELECT encode(sha256(i::text::bytea), 'hex'), 'COMPLETED', 'owner-' || i,
  encode(sha256(('f' || i)::bytea), 'hex'), 9999999999999, decode(repeat('ab', 150), 'hex'), 1, 1
  FROM generate_series(1, 20000) i;
ANALYZE idempotency_record;
SQL
for round in 1 2; do
  for script in floor read claim lookup-first; do
    for clients in 1 4; do
      tps=$(pgbench -h 127.0.0.1 -U postgres -n -M prepared -T "$seconds" -c "$clients" -j "$clients" \
        -f "$dir/$script.sql" "$db" 2>&1 | awk '/^tps =/ { print $3 }')
      echo "round $round, $script, $clients client(s): $tps transactions/s"
    done
  done
done
