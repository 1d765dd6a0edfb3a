#!/usr/bin/env bash
# Guarded calls per second of an Infinispan cluster of three member processes on 127.0.0.1 against the
# number of concurrent callers (dev.idempotency.bench.ClusterScaling), fsync on and off. Every call is a
# new key claimed and completed (two RAFT commands), sent by the callers of one member.
#
#   bash bench/cluster-scaling.sh [seconds per point] [callers]   # default 10 s, 1,4,16,64,256
#
# JGroups ports 7960-7962 (and failure detection 50 above); RAFT logs under target/cluster-scaling.
# Output: one line per point, also in target/cluster-scaling.txt; a plot in target/cluster-scaling.png
# when gnuplot is installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-10}"
callers="${2:-1,4,16,64,256}"
ports="7960,7961,7962"
cp_file="$(mktemp "${TMPDIR:-/tmp}/bench-cp.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -f "$cp_file"
}
trap cleanup EXIT
(cd "$root" && mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file")
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
out="$root/target/cluster-scaling.txt"
: > "$out"
java_opts=(-Xmx1g -Djava.net.preferIPv4Stack=true -cp "$cp")
for fsync in true false; do
  state="$root/target/cluster-scaling/$fsync"
  rm -rf "$state" && mkdir -p "$state"
  pids=()
  for port in 7961 7962; do
    # a member stops by itself once this script ended (at most an hour later)
    java "${java_opts[@]}" dev.idempotency.bench.ClusterScaling member "$port" "$fsync" "$state" "$ports" "$$" \
      > "$state/member-$port.log" 2>&1 &
    pids+=("$!")
  done
  java "${java_opts[@]}" dev.idempotency.bench.ClusterScaling drive 7960 "$fsync" "$state" "$ports" "$seconds" "$callers" \
    2> "$state/driver.log" | tee -a "$out"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
done
if command -v gnuplot > /dev/null; then
  awk '/^fsync=true/ {split($2,c,"="); split($3,r,"="); print c[2], r[2] > "'"$root"'/target/cs-true.dat"}
       /^fsync=false/ {split($2,c,"="); split($3,r,"="); print c[2], r[2] > "'"$root"'/target/cs-false.dat"}' "$out"
  gnuplot -e "set terminal png size 640,400; set output '$root/target/cluster-scaling.png'; set logscale x 2;
    set xlabel 'concurrent callers'; set ylabel 'guarded calls/s'; set key left top;
    plot '$root/target/cs-true.dat' with linespoints title 'fsync on', '$root/target/cs-false.dat' with linespoints title 'fsync off'"
fi
