#!/usr/bin/env bash
# The metrics' cost (MetricsCostBenchmark: the interceptor on the memory store in two Weld containers,
# idempotency.metrics.enabled=false and =true). Each JMH group runs the "off" and the "on" method at the
# same time on two threads, so both see the same machine state. Prints, per group, the medians of the
# measured iterations and the median of the per-iteration on/off ratios (each iteration pairs the two
# settings over the same 2 s).
#
#   bash bench/metrics-cost.sh [FORKS]      # default: 5 forks x 8 iterations of 2 s (about 6 minutes)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
forks="${1:-5}"
out="$root/target/metrics-cost.log"
mkdir -p "$root/target"
cd "$root"
mvn -B -Pbench verify -DskipTests -DskipITs -Djmh.args="MetricsCostBenchmark -f $forks -wi 3 -i 8" >"$out" 2>&1 || {
  tail -n 40 "$out" >&2
  exit 1
}
python3 - "$out" <<'PY'
import re, statistics as st, sys
data, measuring = {}, False
for line in open(sys.argv[1]):
    if line.startswith("# Warmup Iteration"):
        measuring = False
    elif re.match(r"Iteration\s+\d+:", line):
        measuring = True
    m = re.match(r"\s+(\w+(?:Off|On)):\s+([\d.]+) ops/ms", line)
    if m and measuring:
        data.setdefault(m.group(1), []).append(float(m.group(2)))
print("| group | iterations | metrics off (ops/ms, median) | metrics on | on / off (ratio of medians) | on / off (median of per-iteration ratios; min-max) |")
print("|---|---|---|---|---|---|")
for group in ("newKey", "replay"):
    off, on = data[group + "Off"], data[group + "On"]
    ratios = [b / a for a, b in zip(off, on)]
    print(f"| {group} | {len(off)} | {st.median(off):,.1f} | {st.median(on):,.1f} | {st.median(on) / st.median(off):.2f} "
          f"| {st.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
PY
echo "JMH output: $out"
