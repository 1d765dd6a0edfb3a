#!/usr/bin/env bash
# Where the writing endpoint's time goes: for each scenario of write.sh (plain, separate, joined), the
# CPU that the Payara Micro process and all PostgreSQL processes spend per request, and the WAL that
# PostgreSQL writes per request. The CPU comes from /proc/<pid>/stat (user + system ticks) before and
# after each wrk run, the WAL from pg_current_wal_lsn(); both are divided by the requests wrk counted.
# On two shared cores, CPU per request is what bounds throughput once they are saturated.
#
#   bash bench/http/write-cost.sh                                  # 16 connections, 2 rounds of 8 s
#   bash bench/http/write-cost.sh --conns 4 --rounds 3 --duration 10s --no-build
#
# Writes bench/http/results-write-cost/cost.csv and prints the medians per scenario. Needs what
# write.sh needs.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conns=16
rounds=2
duration=8s
warmup=15s
port=8240
build=true
results="$here/results-write-cost"
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
mkdir -p "$results"

server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi' EXIT
# shellcheck source=payara.sh
. "$here/payara.sh"
echo "== starting Payara Micro on 127.0.0.1:$port (JPA store on PostgreSQL, database $db)"
start_payara jpa "$port" "$target/bench.war" "$target/payara" "$results" "$db" "$results/server.log"
curl -fsS -X PUT "http://127.0.0.1:$port/bench/api/write/table" >/dev/null
psql -h 127.0.0.1 -U postgres -d "$db" -qc "TRUNCATE bench_order; ANALYZE bench_order; ANALYZE idempotency_record"

nonce="$(date +%s)-$$"
path_of() { case "$1" in plain) echo write/plain ;; separate) echo write/separate ;; joined) echo write/joined ;; esac; }
lua_of() { case "$1" in plain) echo plain.lua ;; *) echo newkey.lua ;; esac; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
postgres_ticks() {
  local total=0 pid
  for pid in $(pgrep -x postgres || true); do total=$((total + $(ticks "$pid"))); done
  echo "$total"
}
wal() { psql -h 127.0.0.1 -U postgres -d "$db" -tAc "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"; }

echo "   warm-up ($warmup per scenario at $conns connections)"
for scenario in plain separate joined; do
  wrk -t2 -c"$conns" -d"$warmup" -s "$here/$(lua_of "$scenario")" \
    "http://127.0.0.1:$port/bench/api/$(path_of "$scenario")" -- "warm-$nonce-$scenario" >/dev/null
done
psql -h 127.0.0.1 -U postgres -d "$db" -qc "ANALYZE bench_order; ANALYZE idempotency_record"

hz=$(getconf CLK_TCK)
echo "scenario,round,requests_per_s,payara_cpu_us,postgres_cpu_us,wal_bytes" >"$results/cost.csv"
for ((r = 1; r <= rounds; r++)); do
  for scenario in plain separate joined; do
    out="$results/wrk-$scenario-r$r.txt"
    w0=$(wal) j0=$(ticks "$server") p0=$(postgres_ticks)
    wrk -t2 -c"$conns" -d"$duration" -s "$here/$(lua_of "$scenario")" \
      "http://127.0.0.1:$port/bench/api/$(path_of "$scenario")" -- "$nonce-$scenario-r$r" >"$out" 2>&1
    j1=$(ticks "$server") p1=$(postgres_ticks) w1=$(wal)
    python3 - "$out" "$scenario" "$r" "$hz" "$((j1 - j0))" "$((p1 - p0))" "$((w1 - w0))" >>"$results/cost.csv" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
requests = int(re.search(r"(\d+) requests in", text).group(1))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
bad = int(re.search(r"non-(?:201|replays): (\d+)", text).group(1))
if bad:
    sys.exit(f"{sys.argv[1]}: {bad} answers were not what the scenario expects")
hz, payara, postgres, wal = (int(x) for x in sys.argv[4:8])
us = lambda ticks: ticks * 1e6 / hz / requests
print(f"{sys.argv[2]},{sys.argv[3]},{rps:.1f},{us(payara):.0f},{us(postgres):.0f},{wal / requests:.0f}")
PY
    echo "   $(tail -n 1 "$results/cost.csv")"
  done
done

python3 - "$results/cost.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| scenario | requests/s | Payara CPU µs/request | PostgreSQL CPU µs/request | WAL bytes/request |")
print("|---|---|---|---|---|")
for scenario in ("plain", "separate", "joined"):
    mine = [r for r in rows if r["scenario"] == scenario]
    med = lambda k: statistics.median(float(r[k]) for r in mine)
    print(f"| {scenario} | {med('requests_per_s'):,.0f} | {med('payara_cpu_us'):,.0f} | "
          f"{med('postgres_cpu_us'):,.0f} | {med('wal_bytes'):,.0f} |")
PY
