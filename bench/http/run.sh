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
# PAYARA_JAVA_OPTS adds JVM options to Payara Micro, e.g. a profiler (see docs/benchmarks.md):
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

while [ $# -gt 0 ]; do
  case "$1" in
    --stores) stores="$2"; shift 2 ;;
    --conns) conns="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --no-build) build=false; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

for tool in java mvn curl wrk python3; do
  command -v "$tool" >/dev/null || { echo "$tool is needed on the PATH" >&2; exit 1; }
done

if $build; then
  echo "Building the library and the benchmark WAR..."
  (cd "$root" && mvn -B -q install -DskipTests -DskipITs) && mvn -B -q -f "$here/pom.xml" package
fi
target="$here/target"
mkdir -p "$results"
raw="$results/raw.csv"
echo "store,scenario,connections,round,requests_per_s,p50_ms,p99_ms,bad_answers,socket_errors" >"$raw"

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

# Runs wrk once and appends one line to raw.csv. $1 store, $2 scenario, $3 connections, $4 round
# (0 = warm-up, not recorded), $5 duration, $6 the script's argument.
run_wrk() {
  local store="$1" scenario="$2" c="$3" round="$4" d="$5" arg="$6" path=guarded threads=2
  [ "$scenario" = plain ] && path=plain
  [ "$c" -lt 2 ] && threads=1
  local out="$results/wrk-$store-$scenario-c$c-r$round.txt"
  wrk -t"$threads" -c"$c" -d"$d" --timeout 5s --latency -s "$here/$scenario.lua" \
    "http://127.0.0.1:$port/bench/api/$path" -- "$arg" >"$out" 2>&1
  [ "$round" = 0 ] && return 0
  python3 - "$out" "$store" "$scenario" "$c" "$round" >>"$raw" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(v):
    n, unit = re.match(r"([\d.]+)(us|ms|s)", v).groups()
    return float(n) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
bad = int(re.search(r"non-(?:201|replays): (\d+)", text).group(1))
sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
errors = sum(int(g) for g in sock.groups()) if sock else 0
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{sys.argv[5]},{rps:.1f},{p50:.3f},{p99:.3f},{bad},{errors}")
PY
}

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
