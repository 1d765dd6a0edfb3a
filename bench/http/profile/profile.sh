#!/usr/bin/env bash
# Profiles the guarded new-key POST on the JPA store (PostgreSQL) or on embedded Infinispan in Payara
# Micro with async-profiler.
#
#   bash bench/http/profile/profile.sh --asprof /path/to/libasyncProfiler.so [--store jpa|infinispan]
#       [--port 8241] [--db bench_http_profile]
#       [--conns "1 4"] [--duration 15s] [--events "wall cpu"] [--scenarios "newkey plain"]
#       [--results DIR] [--war bench/http/target/bench.war]
#
# Starts Payara Micro the way run.sh does (same WAR, JVM options, data source), warms up with 30 s of
# new keys at 4 connections, then for each connection count, event and scenario (newkey.lua: the
# guarded POST with a new key; plain.lua: the unguarded floor): attaches the profiler
# (ProfilerControl.java, the Attach API), runs wrk for the duration, stops the profiler into
# DIR/<event>-<scenario>-c<conns>.collapsed (collapsed stacks with thread names), and prints
# attribute.py's breakdown per request. Build the WAR first (run.sh, or mvn -f bench/http/pom.xml
# package). Every profile samples at interval=1ms, so one sample is about 1 ms of one thread (wall)
# or 1 ms of CPU (cpu). PAYARA_JAVA_OPTS adds JVM options, as in run.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
asprof="" store=jpa port=8241 db=bench_http_profile conns="1 4" duration=15s events="wall cpu" scenarios="newkey plain"
results="$here/profile/results" war="$here/target/bench.war"
while [ $# -gt 0 ]; do
  case "$1" in
    --asprof) asprof="$2"; shift 2 ;;
    --store) store="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --conns) conns="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --scenarios) scenarios="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --war) war="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[ -f "$asprof" ] || { echo "--asprof must name libasyncProfiler.so" >&2; exit 2; }
mkdir -p "$results"
payara="$(dirname "$war")/payara"

server=""
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi' EXIT
# shellcheck source=../payara.sh
. "$here/payara.sh"
start_payara "$store" "$port" "$war" "$payara" "$results" "$db" "$results/server.log"
nonce="$(date +%s)-$$"
echo "warm-up: 30 s of new keys at 4 connections"
wrk -t2 -c4 -d30s -s "$here/newkey.lua" "http://127.0.0.1:$port/bench/api/guarded" -- "warm-$nonce" >"$results/warmup.txt" 2>&1
control() { java "$here/profile/ProfilerControl.java" "$server" "$asprof" "$1"; }
for c in $conns; do
  for event in $events; do
    for scenario in $scenarios; do
      threads=2; [ "$c" -lt 2 ] && threads=1
      path=guarded; [ "$scenario" = plain ] && path=plain
      out="$results/$store-$event-$scenario-c$c"
      control "start,event=$event,interval=1ms,threads"
      wrk -t$threads -c"$c" -d"$duration" --latency -s "$here/$scenario.lua" "http://127.0.0.1:$port/bench/api/$path" \
        -- "$nonce-$event-c$c" >"$out.wrk.txt" 2>&1
      control "stop,file=$out.collapsed,collapsed"
      requests=$(awk '/requests in/ { print $1 }' "$out.wrk.txt")
      echo "== $event, $scenario, $c connection(s): $(grep 'Requests/sec' "$out.wrk.txt"), load average $(cut -d' ' -f1 /proc/loadavg)"
      python3 "$here/profile/attribute.py" "$out.collapsed" "$requests" | tee "$out.attribution.txt"
    done
  done
done
