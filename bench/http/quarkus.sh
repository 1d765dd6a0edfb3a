#!/usr/bin/env bash
# HTTP benchmark on Quarkus 3: wrk against the app in bench/quarkus (the same trivial POST as the
# Payara benchmark, unguarded and guarded by @Idempotent, on the memory store), started with
# `java -jar target/quarkus-app/quarkus-run.jar` on 127.0.0.1. The scenarios of run.sh, from the same
# scripts: unguarded (plain.lua), guarded with a new Idempotency-Key per request (newkey.lua) and with
# one key replayed (replay.lua), interleaved (plain, newkey, replay at one connection count, then the
# next count, then the next round), so that each ratio compares runs taken side by side.
#
#   bash bench/http/quarkus.sh                              # 1 and 16 conns, 3 rounds of 10 s, 20 s warm-up
#   bash bench/http/quarkus.sh --conns "1 4 16 64" --rounds 5 --duration 10s --warmup 30s
#   bash bench/http/quarkus.sh --no-build                   # reuse bench/quarkus/target
#
# Builds only the app (the library must be installed in the local Maven repository first:
# `mvn -B install -DskipTests -DskipITs` at the repository root). Writes bench/http/results-quarkus/raw.csv
# (one line per wrk run), summary.csv and summary.md (medians and ratios), the wrk outputs and the app's
# log. Needs java 17+, mvn, curl, wrk and python3. Options: --port (8340), --results DIR.
# QUARKUS_JAVA_OPTS adds JVM options to the app (e.g. -Xmx512m or a profiler agent).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
app="$root/bench/quarkus"
conns="1 16"
rounds=3
duration=10s
warmup=20s
port=8340
build=true
results="$here/results-quarkus"
store=quarkus-memory

# shellcheck source=common.sh
. "$here/common.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2; continue ;;
  esac
  shared_option "$@" || { echo "unknown option: $1" >&2; exit 2; }
  shift "$shift_by"
done
require_tools java mvn curl wrk python3
jar="$HOME/.m2/repository/dev/idempotency/idempotency-ee/0.1.0-SNAPSHOT/idempotency-ee-0.1.0-SNAPSHOT.jar"
if $build; then
  [ -f "$jar" ] || { echo "the library is not installed ($jar is missing): run" \
    "\`mvn -B install -DskipTests -DskipITs\` at the repository root first" >&2; exit 1; }
  echo "Building the Quarkus app in $app..."
  mvn -B -q -f "$app/pom.xml" package
fi
start_raw

server=""
stop_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

echo "== $store: starting Quarkus on 127.0.0.1:$port"
log="$results/server-$store.log"
# shellcheck disable=SC2086
java ${QUARKUS_JAVA_OPTS:-} -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
  -jar "$app/target/quarkus-app/quarkus-run.jar" >"$log" 2>&1 &
server=$!
for ((i = 0; i < 120; i++)); do
  kill -0 "$server" 2>/dev/null || { echo "the app exited; its log: $log" >&2; tail -n 20 "$log" >&2; exit 1; }
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.5
done
[ "$i" -lt 120 ] || { echo "the app did not answer on port $port within 60 s; its log: $log" >&2; exit 1; }

# shellcheck source=wrk.sh
. "$here/wrk.sh"

nonce="$(date +%s)-$$"
code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/plain")
[ "$code" = 201 ] || { echo "the unguarded POST answered $code, not 201" >&2; exit 1; }
code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/guarded")
[ "$code" = 400 ] || { echo "the guarded POST without a key answered $code, not 400: is it guarded?" >&2; exit 1; }
# Stores a new key for the replay run that follows (records live idempotency.ttl, one minute here).
seed_replay_key() { # $1 = the key
  local code
  code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $1" -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/guarded")
  [ "$code" = 201 ] || { echo "the first guarded POST with key $1 answered $code, not 201" >&2; exit 1; }
}
echo "   warm-up ($warmup per scenario at 16 connections)"
for scenario in plain newkey replay; do
  arg="warm-$nonce-$store"
  if [ "$scenario" = replay ]; then arg="replay-$arg"; seed_replay_key "$arg"; fi
  run_wrk "$store" "$scenario" 16 0 "$warmup" "$arg"
done
for ((r = 1; r <= rounds; r++)); do
  for c in $conns; do
    for scenario in plain newkey replay; do
      arg="$nonce-$store-r$r-c$c"
      if [ "$scenario" = replay ]; then arg="replay-$arg"; seed_replay_key "$arg"; fi
      run_wrk "$store" "$scenario" "$c" "$r" "$duration" "$arg"
    done
  done
  echo "   round $r/$rounds done: $(tail -n 1 "$raw")"
done
stop_server

python3 "$here/summarize.py" "$raw" "$results/summary.csv" "$results/summary.md"
cat "$results/summary.csv"
cat "$results/summary.md"
# A refused or unexpected answer (a 503 from a full store, a replay that ran) means a run did not measure
# what it claims.
bad=$(awk -F, 'NR > 1 { n += $8 + $9 } END { print n + 0 }' "$raw")
[ "$bad" = 0 ] || { echo "FAILED: $bad unexpected answers or socket errors (bad_answers, socket_errors in $raw)" >&2; exit 1; }
