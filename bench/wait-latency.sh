#!/usr/bin/env bash
# A waiting duplicate's latency from the owner's completion to its replay, and its store calls per
# waiting second, with the owner on the waiter's node and on another node (dev.idempotency.bench.WaitLatency).
#
#   bash bench/wait-latency.sh [trials] [stores] [hold ms] [notices]   # default 200; memory,jpa,jpa-notify,redis; 40; on
# stores: memory, jpa, jpa-notify (idempotency.jpa.notify-settlements=true), redis, infinispan (local cache,
# same node only), infinispan-cluster (three members in one JVM, JGroups ports 7883-7885). notices: on,
# off (settlement notices unused, as before they existed) or both. jpa and jpa-notify need PostgreSQL on
# 127.0.0.1:5432 (database test), redis Redis on 127.0.0.1:6379 (database 15).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cp_file="$(mktemp "${TMPDIR:-/tmp}/bench-cp.XXXXXX")"
trap 'rm -f "$cp_file"' EXIT
(cd "$root" && mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file")
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
cd "$root"
java -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true -cp "$cp" dev.idempotency.bench.WaitLatency \
  "${1:-200}" "${2:-memory,jpa,jpa-notify,redis}" "${3:-40}" "${4:-on}" 2>/dev/null | grep '^store='
