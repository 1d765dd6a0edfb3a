#!/usr/bin/env bash
# The JPA store on PostgreSQL (127.0.0.1:5432) against its physical floor and Apache Camel's
# JdbcMessageIdRepository: JpaStoreBench's JMH groups (newKey, duplicate, claimComplete, notices), each
# running its three members at the same time with n threads each, for n = 1, 4 and 16. Prints, per
# group and thread count, the median of the iterations' ops/s for each member and the median of the
# per-iteration ratios (store / floor, store / Camel), which is what docs/performance.md reports.
#
#   bash bench/jpa-store.sh [jmh options]      # e.g. -wi 2 -i 5 (the defaults in JpaStoreBench)
#
# Extra Maven options (e.g. -Dmaven.repo.local=...) can be given in MVN_OPTS_EXTRA.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/target/jpa-bench"
mkdir -p "$out"
cp_file="$out/classpath.txt"
(cd "$root" && mvn -B -q -Pbench ${MVN_OPTS_EXTRA:-} test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cp_file")
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
for n in 1 4 16; do
  # The machine is shared: another benchmark may hold JMH's global lock; the ratios are side by side anyway.
  java -Djmh.ignoreLock=true -cp "$cp" org.openjdk.jmh.Main 'dev.idempotency.bench.JpaStoreBench' -tg "$n,$n,$n" \
    -rf json -rff "$out/threads-$n.json" "$@" > "$out/threads-$n.log"
done
python3 - "$out" <<'PY'
import json, statistics, sys, pathlib
out = pathlib.Path(sys.argv[1])
floors = {"newKey": ("storeClaim", "rawInsert", "camelAdd"),
          "duplicate": ("storeDuplicate", "rawOnConflictDuplicate", "camelDuplicate"),
          "claimComplete": ("storeClaimComplete", "rawInsertOnce", "rawInsertThenUpdate"),
          "notices": ("storeNotified", "storeSilent", "rawPair")}
print("| group | threads | store ops/s | floor ops/s | third ops/s | store/floor | store/third |")
print("|---|---|---|---|---|---|---|")
for n in (1, 4, 16):
    for run in json.loads((out / f"threads-{n}.json").read_text()):
        group = run["benchmark"].rsplit(".", 1)[1]
        store, floor, third = floors[group]
        m = run["secondaryMetrics"]
        iters = lambda name: [x for fork in m[name]["rawData"] for x in fork]
        s, f, t = iters(store), iters(floor), iters(third)
        med = lambda xs: statistics.median(xs)
        print(f"| {group} | {n} | {med(s):,.0f} | {med(f):,.0f} | {med(t):,.0f} | "
              f"{med([a / b for a, b in zip(s, f)]):.2f} | {med([a / b for a, b in zip(s, t)]):.2f} |")
PY
