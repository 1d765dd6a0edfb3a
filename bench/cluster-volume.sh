#!/usr/bin/env bash
# Volume of an Infinispan cluster of three member processes (dev.idempotency.internal.stores.infinispan.ClusterVolume):
# stores N records through the store (256 callers), kills one member with kill -9 at N/2 and starts it
# again at 3N/4, then every member checks it holds every record and reports its heap and state files.
#
#   bash bench/cluster-volume.sh [records] [heap per member]   # default 2000000 records, 3g
#
# JGroups ports 7970-7972 (and failure detection 50 above); state under target/cluster-volume.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
records="${1:-2000000}"
heap="${2:-3g}"
state="$root/target/cluster-volume"
cp_file="$(mktemp "${TMPDIR:-/tmp}/bench-cp.XXXXXX")"
trap 'rm -f "$cp_file"' EXIT
(cd "$root" && mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file")
rm -rf "$state" && mkdir -p "$state"
java -Xmx"$heap" -Djava.net.preferIPv4Stack=true -cp "$root/target/test-classes:$root/target/classes:$(cat "$cp_file")" \
  dev.idempotency.internal.stores.infinispan.ClusterVolume drive "$records" "$state" "$heap" 2> "$state/driver.log" | tee "$root/target/cluster-volume.txt"
