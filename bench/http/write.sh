#!/usr/bin/env bash
# The realistic HTTP benchmark: a POST that INSERTs one row into PostgreSQL in a JTA transaction (what a
# payment or order endpoint does), on Payara Micro with the JPA store on the same PostgreSQL, wrk on
# 127.0.0.1. Scenarios, interleaved per connection count and round so that each ratio compares runs
# taken side by side:
#   plain     the writing POST, unguarded (the floor)                 /bench/api/write/plain
#   separate  guarded, a new key per request, separate mode           /bench/api/write/separate
#   joined    guarded, a new key per request, joined mode             /bench/api/write/joined
#   replay    guarded (joined), every request replays one stored key  /bench/api/write/joined
# At the end it counts the rows of bench_order per key: a key with two rows would be a double execution.
#
#   bash bench/http/write.sh                                  # 1 4 16 64 connections, 3 rounds of 5 s
#   bash bench/http/write.sh --conns "1 16" --rounds 5 --duration 10s --no-build
#
# Writes bench/http/results-write/raw.csv and summary.csv (medians; ratio = scenario / plain of the
# same round). Needs what run.sh needs, and PostgreSQL on 127.0.0.1:5432 (database bench_http).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conns="1 4 16 64"
rounds=3
duration=5s
warmup=20s
port=8240
build=true
results="$here/results-write"
db=bench_http

# shellcheck source=common.sh
. "$here/common.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2; continue ;;
  esac
  shared_option "$@" || { echo "unknown option: $1" >&2; exit 2; }
  shift "$shift_by"
done
require_tools java mvn curl wrk python3 psql
build_bench
target="$here/target"
rm -rf "$results"
start_raw

server=""
stop_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# shellcheck source=payara.sh
. "$here/payara.sh"
# shellcheck source=wrk.sh
. "$here/wrk.sh"

echo "== starting Payara Micro on 127.0.0.1:$port (JPA store on PostgreSQL, database $db)"
start_payara jpa "$port" "$target/bench.war" "$target/payara" "$results" "$db" "$results/server.log"
curl -fsS -X PUT "http://127.0.0.1:$port/bench/api/write/table" >/dev/null
psql -h 127.0.0.1 -U postgres -d "$db" -qc "TRUNCATE bench_order; ANALYZE bench_order; ANALYZE idempotency_record"

nonce="$(date +%s)-$$"
replay_key="replay-$nonce"
code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -H "Idempotency-Key: $replay_key" -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/write/joined")
[ "$code" = 201 ] || { echo "the first joined POST answered $code, not 201 ($results/server.log)" >&2; exit 1; }

scenario_args() { # scenario -> "path lua"
  case "$1" in
    plain) echo "write/plain plain.lua" ;;
    separate) echo "write/separate newkey.lua" ;;
    joined) echo "write/joined newkey.lua" ;;
    replay) echo "write/joined replay.lua" ;;
  esac
}
run() { # scenario connections round duration
  local path lua arg
  read -r path lua <<<"$(scenario_args "$1")"
  arg="$nonce-$1-r$3-c$2"; [ "$1" = replay ] && arg="$replay_key"
  run_wrk jpa-write "$1" "$2" "$3" "$4" "$arg" "$path" "$lua"
}

echo "   warm-up ($warmup per scenario at 16 connections)"
for scenario in plain separate joined replay; do run "$scenario" 16 0 "$warmup"; done
# Statistics of the filled tables (autovacuum may be off): see docs/jpa-store.md, "How a claim works".
psql -h 127.0.0.1 -U postgres -d "$db" -qc "ANALYZE bench_order; ANALYZE idempotency_record"
for ((r = 1; r <= rounds; r++)); do
  for c in $conns; do
    for scenario in plain separate joined replay; do run "$scenario" "$c" "$r" "$duration"; done
  done
  echo "   round $r/$rounds done: $(tail -n 1 "$raw")"
done
stop_server

doubles=$(psql -h 127.0.0.1 -U postgres -d "$db" -tAc \
  "SELECT count(*) - count(DISTINCT order_key) FROM bench_order WHERE order_key <> '-'")
keyed=$(psql -h 127.0.0.1 -U postgres -d "$db" -tAc "SELECT count(*) FROM bench_order WHERE order_key <> '-'")
replayed=$(psql -h 127.0.0.1 -U postgres -d "$db" -tAc "SELECT count(*) FROM bench_order WHERE order_key = '$replay_key'")
echo "rows of guarded requests: $keyed; keys with more than one row: $doubles; rows of the replayed key: $replayed" |
  tee "$results/rows.txt"
python3 "$here/summarize.py" "$raw" "$results/summary.csv"
cat "$results/summary.csv"
[ "$doubles" = 0 ] && [ "$replayed" = 1 ]
