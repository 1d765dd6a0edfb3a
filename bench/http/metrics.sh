#!/usr/bin/env bash
# The cost of the library's metrics over HTTP: two Payara Micro servers with the benchmark WAR on the
# memory store, one with metrics on (the default: MicroProfile Metrics, JMX) and one with
# idempotency.metrics.enabled=false, measured side by side: in each round, each scenario (a new key
# per request, one key replayed) and connection count runs on one server and then on the other, the
# order alternating between rounds. Prints the medians and the on/off ratio of the medians.
#
#   bash bench/http/metrics.sh                             # 4 and 16 connections, 5 rounds of 10 s
#   bash bench/http/metrics.sh --conns "16" --rounds 3 --duration 5s --no-build
#
# Writes bench/http/results-metrics/raw.csv and summary.csv. Needs java 17+, mvn, curl, wrk, python3.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conns="4 16"
rounds=5
duration=10s
warmup=20s
build=true
results="$here/results-metrics"
on_port=8240
off_port=8241

# shellcheck source=common.sh
. "$here/common.sh"
while [ $# -gt 0 ]; do
  shared_option "$@" || { echo "unknown option: $1" >&2; exit 2; }
  shift "$shift_by"
done
require_tools java mvn curl wrk python3
build_bench
target="$here/target"
start_raw

servers=()
stop_servers() {
  for s in "${servers[@]}"; do kill "$s" 2>/dev/null || true; wait "$s" 2>/dev/null || true; done
}
trap stop_servers EXIT
trap 'exit 130' INT TERM

# shellcheck source=payara.sh
. "$here/payara.sh"
# shellcheck source=wrk.sh
. "$here/wrk.sh"

# A new key per request stores a record per request: limits and a ttl that hold a whole run on both.
common="-Didempotency.ttl=PT30S -Didempotency.purge.interval=PT10S -Didempotency.memory.max-entries=1000000 -Didempotency.memory.max-bytes=400000000"
PAYARA_JAVA_OPTS="$common" start_payara memory "$on_port" "$target/bench.war" "$target/payara" "$results" - \
  "$results/server-on.log"
servers+=("$server")
PAYARA_JAVA_OPTS="$common -Didempotency.metrics.enabled=false" start_payara memory "$off_port" "$target/bench.war" \
  "$target/payara" "$results" - "$results/server-off.log"
servers+=("$server")

nonce="$(date +%s)-$$"
replay_key="replay-$nonce"
for port in "$on_port" "$off_port"; do
  code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $replay_key" -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$port/bench/api/guarded")
  [ "$code" = 201 ] || { echo "the first guarded POST on port $port answered $code, not 201" >&2; exit 1; }
done
# The metrics-on server must publish them, the other must not: otherwise the run compares nothing.
on_metrics="$(curl -fsS "http://127.0.0.1:$on_port/metrics")"
off_metrics="$(curl -fsS "http://127.0.0.1:$off_port/metrics")"
grep -q '^idempotency_calls_total' <<<"$on_metrics" ||
  { echo "the metrics-on server publishes no idempotency_calls_total" >&2; exit 1; }
if grep -q '^idempotency_calls_total' <<<"$off_metrics"; then
  echo "the metrics-off server still publishes idempotency_calls_total" >&2
  exit 1
fi

# Stores (or replays) the replay key just before a replay run: records live 30 s here, so a key from an
# earlier run may have expired, and its first request would run again instead of replaying.
prime() {
  curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' -H "Idempotency-Key: $replay_key" \
    -d '{"orderId":"o-1","amount":42}' "http://127.0.0.1:$1/bench/api/guarded"
}
label() { [ "$1" = "$on_port" ] && echo metrics-on || echo metrics-off; }
echo "warm-up ($warmup per scenario and server at 16 connections)"
for port in "$on_port" "$off_port"; do
  for scenario in newkey replay; do
    arg="warm-$nonce"; [ "$scenario" = replay ] && arg="$replay_key" && prime "$port"
    run_wrk "$(label "$port")" "$scenario" 16 0 "$warmup" "$arg"
  done
done
for ((r = 1; r <= rounds; r++)); do
  order="$on_port $off_port"; [ $((r % 2)) = 0 ] && order="$off_port $on_port"
  for c in $conns; do
    for scenario in newkey replay; do
      for port in $order; do
        arg="$nonce-r$r-c$c-$port"; [ "$scenario" = replay ] && arg="$replay_key" && prime "$port"
        run_wrk "$(label "$port")" "$scenario" "$c" "$r" "$duration" "$arg"
      done
    done
  done
  echo "round $r/$rounds done"
done

python3 - "$raw" "$results/summary.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if int(r["bad_answers"]) or int(r["socket_errors"])]
if bad:
    sys.exit(f"{len(bad)} wrk runs had wrong answers or socket errors: {bad[:3]}")
runs = {}
for r in rows:
    runs.setdefault((r["scenario"], int(r["connections"]), r["store"]), []).append(float(r["requests_per_s"]))
with open(sys.argv[2], "w") as out:
    out.write("scenario,connections,rounds,on_median_rps,off_median_rps,on_off_ratio,on_min,on_max,off_min,off_max\n")
    for (scenario, c) in sorted({(s, c) for s, c, _ in runs}):
        on, off = runs[(scenario, c, "metrics-on")], runs[(scenario, c, "metrics-off")]
        line = (f"{scenario},{c},{len(on)},{statistics.median(on):.0f},{statistics.median(off):.0f},"
                f"{statistics.median(on) / statistics.median(off):.3f},{min(on):.0f},{max(on):.0f},"
                f"{min(off):.0f},{max(off):.0f}")
        out.write(line + "\n")
        print(line)
PY
