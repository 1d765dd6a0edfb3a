#!/usr/bin/env bash
# HTTP benchmark: wrk against Payara Micro on 127.0.0.1. One trivial POST resource, unguarded
# (plain.lua) and guarded by @Idempotent with a new Idempotency-Key per request (newkey.lua) and with
# one key replayed (replay.lua), per store, at several connection counts. The three scenarios run
# interleaved (plain, newkey, replay at one connection count, then the next count, then the next
# round), so that each ratio compares runs taken side by side.
#
#   bash bench/http/run.sh                                  # infinispan and jpa, 1 4 16 64 conns, 5 rounds of 10 s
#   bash bench/http/run.sh --stores "memory infinispan jpa" --conns "1 16" --rounds 3 --duration 5s
#   bash bench/http/run.sh --no-build                       # reuse bench/http/target
#
# Writes bench/http/results/raw.csv (one line per wrk run) and summary.csv (medians and ratios), and
# the wrk outputs and server logs next to them. Needs java 17+, mvn, curl, wrk (Debian: apt-get install
# wrk) and python3; for jpa, PostgreSQL on 127.0.0.1:5432 (user postgres, trust or password postgres;
# the database bench_http is created when missing). Options: --port (8240), --results DIR, --db NAME
# (the PostgreSQL database, bench_http).
# PAYARA_JAVA_OPTS adds JVM options to Payara Micro, e.g. a profiler (see bench/README.md):
#   PAYARA_JAVA_OPTS="-agentpath:/path/libasyncProfiler.so=start,event=wall,file=/tmp/w.collapsed,collapsed"
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
stores="infinispan jpa"
conns="1 4 16 64"
rounds=5
duration=10s
warmup=30s
port=8240
build=true
results="$here/results"
db=bench_http

# shellcheck source=common.sh
. "$here/common.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --stores) stores="$2"; shift 2; continue ;;
    --port) port="$2"; shift 2; continue ;;
    --db) db="$2"; shift 2; continue ;;
  esac
  shared_option "$@" || { echo "unknown option: $1" >&2; exit 2; }
  shift "$shift_by"
done
require_tools java mvn curl wrk python3
build_bench
target="$here/target"
start_raw

server=""
stop_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# shellcheck source=payara.sh
. "$here/payara.sh"
start_server() { # $1 = store
  start_payara "$1" "$port" "$target/bench.war" "$target/payara" "$results" "$db" "$results/server-$1.log"
}

# shellcheck source=wrk.sh
. "$here/wrk.sh"

nonce="$(date +%s)-$$"
for store in $stores; do
  echo "== $store: starting Payara Micro on 127.0.0.1:$port"
  start_server "$store"
  replay_key="replay-$nonce-$store"
  code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $replay_key" -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/guarded")
  [ "$code" = 201 ] || { echo "the first guarded POST answered $code, not 201" >&2; exit 1; }
  echo "   warm-up ($warmup per scenario at 16 connections)"
  for scenario in plain newkey replay; do
    arg="warm-$nonce-$store"; [ "$scenario" = replay ] && arg="$replay_key"
    run_wrk "$store" "$scenario" 16 0 "$warmup" "$arg"
  done
  for ((r = 1; r <= rounds; r++)); do
    for c in $conns; do
      for scenario in plain newkey replay; do
        arg="$nonce-$store-r$r-c$c"; [ "$scenario" = replay ] && arg="$replay_key"
        run_wrk "$store" "$scenario" "$c" "$r" "$duration" "$arg"
      done
    done
    echo "   round $r/$rounds done: $(tail -n 1 "$raw")"
  done
  stop_server
done

python3 "$here/summarize.py" "$raw" "$results/summary.csv" "$results/summary.md"
cat "$results/summary.csv"
