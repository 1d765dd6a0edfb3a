#!/usr/bin/env bash
# Heap retained per stored record (dev.idempotency.bench.RecordMemory), for the memory store and the
# embedded Infinispan local cache and an Infinispan cluster member's record set, with outcomes of 0 and 200 bytes. One fresh JVM per measurement.
#
#   bash bench/memory.sh [records]        # default 200000
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-200000}"
cp_file="$(mktemp "${TMPDIR:-/tmp}/bench-cp.XXXXXX")"
trap 'rm -f "$cp_file"' EXIT
(cd "$root" && mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file")
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
for store in memory infinispan; do
  for outcome in 0 200; do
    java -Xms2g -Xmx2g -XX:+UseSerialGC -cp "$cp" dev.idempotency.bench.RecordMemory "$store" "$n" "$outcome" 2>/dev/null |
      grep '^store='
  done
done
for outcome in 0 200; do
  java -Xms2g -Xmx2g -XX:+UseSerialGC -cp "$cp" dev.idempotency.internal.stores.infinispan.RecordSetMemory "$n" "$outcome" |
    grep '^store='
done
