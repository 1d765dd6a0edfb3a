#!/usr/bin/env bash
# The Redis store against the raw floor on the same Redis and the same connection pool
# (RedisClaimBench, database 15 of the machine's Redis on 127.0.0.1:6379), side by side: every round
# runs the store's benchmark and its floors back to back (claim / rawSetNx, claimAndComplete /
# rawSetNxThenSetXx and rawSetNxThenCas, a SET NX and the smallest compare-and-set script), one JMH fork each, so both see the same machine state. Ten warmup seconds:
# the store's path needs them to be compiled (with two, the claim looked 30% slower than it is). Prints, per pair, the
# median of the per-round ratios and the medians of every measured iteration.
#
#   bash bench/redis-store.sh [ROUNDS] [WAIT_REPLICAS]     # default: 5 rounds, 0 replicas
#   THREADS=16 bash bench/redis-store.sh 3 0               # JMH threads (default 4)
#
# WAIT_REPLICAS=1 needs a replica of the machine's Redis, e.g.
#   redis-server --port 6380 --bind 127.0.0.1 --replicaof 127.0.0.1 6379 --save "" --appendonly no --daemonize yes
# Runs on a copy of the compiled classes (run `mvn -Pbench test-compile` first), so a build may go on meanwhile.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-5}"
replicas="${2:-0}"
out="$root/target/redis-bench-$replicas-t${THREADS:-4}"
rm -rf "$out" && mkdir -p "$out"
cd "$root"
mvn -B -q dependency:build-classpath -Dmdep.outputFile="$out/deps.txt" -Dmdep.includeScope=test >/dev/null
cp -r target/classes "$out/classes" && cp -r target/test-classes "$out/test-classes"
cp="$out/test-classes:$out/classes:$(cat "$out/deps.txt")"
benches=(claim rawSetNx claimAndComplete rawSetNxThenSetXx rawSetNxThenCas)
for ((r = 1; r <= rounds; r++)); do
  for b in "${benches[@]}"; do
    java -Djmh.ignoreLock=true -cp "$cp" org.openjdk.jmh.Main "RedisClaimBench.$b\$" -p waitReplicas="$replicas" \
      -t "${THREADS:-4}" -f 1 -wi 10 -w 1 -i 5 -r 2 -rf json -rff "$out/$b-$r.json" >"$out/$b-$r.log" 2>&1
  done
  echo "round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def score(b, r):
    return json.load(open(f"{out}/{b}-{r}.json"))[0]["primaryMetric"]["score"]
def raw(b):
    xs = []
    for r in range(1, rounds + 1):
        for fork in json.load(open(f"{out}/{b}-{r}.json"))[0]["primaryMetric"]["rawData"]:
            xs.extend(fork)
    return statistics.median(xs)
print("| store | ops/s (median) | floor | ops/s (median) | store / floor, median of per-round ratios | per-round ratios |")
print("|---|---|---|---|---|---|")
for store, floor in (("claim", "rawSetNx"), ("claimAndComplete", "rawSetNxThenSetXx"), ("claimAndComplete", "rawSetNxThenCas")):
    ratios = [score(store, r) / score(floor, r) for r in range(1, rounds + 1)]
    print(f"| {store} | {raw(store):,.0f} | {floor} | {raw(floor):,.0f} | **{statistics.median(ratios):.2f}** | "
          + ", ".join(f"{x:.2f}" for x in ratios) + " |")
PY
