#!/usr/bin/env bash
# The metrics' cost (MetricsCostBenchmark: the interceptor on the memory store, Weld) with
# idempotency.metrics.enabled=false and =true, side by side: rounds alternate off, on, off, on...,
# one JMH fork each, so both see the same machine state. Prints the median of every measured
# iteration per benchmark and setting, and the on/off throughput ratio.
#
#   bash bench/metrics-compare.sh [ROUNDS]      # default: 8
#
# Runs on a copy of the compiled classes (run `mvn -Pbench test-compile` first), so a build may go on meanwhile.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-8}"
out="$root/target/metrics-compare"
rm -rf "$out" && mkdir -p "$out"
cd "$root"
mvn -B -q dependency:build-classpath -Dmdep.outputFile="$out/deps.txt" -Dmdep.includeScope=test >/dev/null
cp -r target/classes "$out/classes" && cp -r target/test-classes "$out/test-classes"
cp="$out/test-classes:$out/classes:$(cat "$out/deps.txt")"
for ((r = 1; r <= rounds; r++)); do
  for v in false true; do
    java -Djmh.ignoreLock=true -cp "$cp" org.openjdk.jmh.Main 'MetricsCostBenchmark' -p metrics=$v \
      -f 1 -wi 3 -i 5 -w 1 -r 1 -rf json -rff "$out/$v-$r.json" >"$out/$v-$r.log" 2>&1
    echo "round $r metrics=$v done (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
data = {}
for v in ("false", "true"):
    for r in range(1, rounds + 1):
        for b in json.load(open(f"{out}/{v}-{r}.json")):
            name = b["benchmark"].rsplit(".", 1)[1]
            data.setdefault((name, v), []).extend(x for fork in b["primaryMetric"]["rawData"] for x in fork)
print("| benchmark | metrics off (ops/ms, median) | metrics on (ops/ms, median) | on / off |")
print("|---|---|---|---|")
for name in sorted({n for n, _ in data}):
    off, on = statistics.median(data[(name, "false")]), statistics.median(data[(name, "true")])
    print(f"| {name} | {off:.1f} | {on:.1f} | {on / off:.3f} |")
PY
