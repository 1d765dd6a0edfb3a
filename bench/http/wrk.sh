# Sourced by run.sh and metrics.sh: runs wrk against 127.0.0.1:$port and records the figures.
# The caller sets here (this directory), port, results (the output directory) and raw (the CSV).

# Runs wrk once and appends one line to raw.csv. $1 store, $2 scenario, $3 connections, $4 round
# (0 = warm-up, not recorded), $5 duration, $6 the script's argument; optional: $7 the path under
# /bench/api (default: plain for the scenario plain, else guarded), $8 the wrk script (default:
# <scenario>.lua).
run_wrk() {
  local store="$1" scenario="$2" c="$3" round="$4" d="$5" arg="$6" path="${7:-guarded}" lua="${8:-$2.lua}" threads=2
  [ -z "${7:-}" ] && [ "$scenario" = plain ] && path=plain
  [ "$c" -lt 2 ] && threads=1
  local out="$results/wrk-$store-$scenario-c$c-r$round.txt"
  wrk -t"$threads" -c"$c" -d"$d" --timeout 5s --latency -s "$here/$lua" \
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
