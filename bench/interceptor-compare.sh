#!/usr/bin/env bash
# The interceptor benchmark (InterceptorBenchmark, Weld + memory store) on this checkout and on an
# older commit, side by side: rounds alternate old, new, old, new..., one JMH fork each, so both see
# the same machine state. Prints the median of every measured iteration per benchmark and version,
# the overhead (guarded minus unguarded) and the new/old ratio.
#
#   bash bench/interceptor-compare.sh [BASE_REV] [ROUNDS]      # default: b921e2f 5
#
# The benchmark code is this checkout's (bench/jmh/java/.../bench); only the library classes differ.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-b921e2f}"
rounds="${2:-5}"
out="$root/target/interceptor-compare"
rm -rf "$out" && mkdir -p "$out"

cd "$root"
mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.outputFile="$out/deps.txt" -Dmdep.includeScope=test
deps="$(cat "$out/deps.txt")"
rm -rf "$out/new-classes" && cp -r target/classes "$out/new-classes"

git worktree add -q --detach "$out/base-src" "$base"
trap 'git -C "$root" worktree remove --force "$out/base-src" 2>/dev/null || true' EXIT
(cd "$out/base-src" && mvn -B -q compile -Dspotless.check.skip=true)
cp -r "$out/base-src/target/classes" "$out/base-classes"

for ((r = 1; r <= rounds; r++)); do
  for v in base new; do
    java -Djmh.ignoreLock=true -cp "target/test-classes:$out/$v-classes:$deps" org.openjdk.jmh.Main \
      'InterceptorBenchmark' -f 1 -wi 3 -i 5 -w 1 -r 1 -rf json -rff "$out/$v-$r.json" >"$out/$v-$r.log" 2>&1
    echo "round $r $v done (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done

python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
data = {}
for v in ("base", "new"):
    for r in range(1, rounds + 1):
        for b in json.load(open(f"{out}/{v}-{r}.json")):
            name = b["benchmark"].rsplit(".", 1)[1]
            for it in b["primaryMetric"]["rawData"]:
                data.setdefault((v, name), []).extend(it)
med = {k: statistics.median(x) for k, x in data.items()}
names = sorted({n for _, n in med})
print(f"medians of {rounds} rounds x 5 iterations (ns per call)")
print("| benchmark | base | new | new/base |")
print("|---|---|---|---|")
for n in names:
    b, w = med.get(("base", n)), med.get(("new", n))
    fmt = lambda x: "-" if x is None else f"{x:,.0f}"
    print(f"| {n} | {fmt(b)} | {fmt(w)} | {'-' if not b or not w else f'{w / b:.2f}'} |")
for v in ("base", "new"):
    u = med.get((v, "unguarded"))
    if u:
        for n in ("guardedNewKey", "guardedReplay"):
            if (v, n) in med:
                print(f"{v}: {n} overhead {med[(v, n)] - u:,.0f} ns")
PY
