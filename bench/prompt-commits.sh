#!/usr/bin/env bash
# What a cluster's prompt commit notices cost (dev.idempotency.bench.PromptCommitsCost): guarded calls per
# second of three Infinispan members in one JVM with VerifyingRaft.promptCommits on and off, in
# alternating rounds on the same cluster.
#
#   bash bench/prompt-commits.sh [rounds] [seconds per round] [callers,...] [fsync]   # default 6 3 1,16,64 false
# JGroups ports 7886-7888 (and failure detection 50 above); RAFT logs under target/raft-state; the
# members' log in target/prompt-commits.log.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cp_file="$(mktemp "${TMPDIR:-/tmp}/bench-cp.XXXXXX")"
trap 'rm -f "$cp_file"' EXIT
(cd "$root" && mvn -B -q -Pbench test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file")
cp="$root/target/test-classes:$root/target/classes:$(cat "$cp_file")"
cd "$root"
log="$root/target/prompt-commits.log"
java -Xmx4g -Djava.net.preferIPv4Stack=true -cp "$cp" dev.idempotency.bench.PromptCommitsCost \
  "${1:-6}" "${2:-3}" "${3:-1,16,64}" "${4:-false}" 2>"$log" | grep -E '^(prompt-commits|  )' || {
  tail -n 40 "$log" >&2
  exit 1
}
