#!/usr/bin/env bash
# Runs the demo shop as a three-node cluster on this machine: three Payara Micro processes that share
# idempotency records through an embedded Infinispan cluster (JGroups over TCP on 127.0.0.1) and the
# shop's tables in PostgreSQL. A retry that lands on another node still finds the first call.
#
#   bash examples/shop/cluster.sh                          # HTTP 8080-8082, JGroups 7800-7802
#   bash examples/shop/cluster.sh --port 9080 --jgroups-port 7900
#
# Needs PostgreSQL with a database for the shop (createdb -h 127.0.0.1 -U postgres shop); the
# SHOP_DB_* variables of run.sh apply. Ctrl-C stops all three nodes.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port=8080
jgroups_port=7800
build=true

while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --jgroups-port) jgroups_port="$2"; shift 2 ;;
    --no-build) build=false; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

if $build; then
  echo "Building the library and the demo with Infinispan..."
  build_log="$(mktemp "${TMPDIR:-/tmp}/shop-build.XXXXXX")"
  if ! { (cd "$root" && mvn -B install -DskipTests -DskipITs) &&
         mvn -B -f "$here/pom.xml" package -DskipTests -DskipITs -Pinfinispan; } >"$build_log" 2>&1; then
    tail -n 60 "$build_log" >&2
    echo "The build failed; its whole log: $build_log" >&2
    exit 1
  fi
  rm -f "$build_log"
fi

pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop_all EXIT
trap 'exit 130' INT TERM

launch() { # node number: starts it in the background
  local n=$1
  bash "$here/run.sh" --no-build --postgres --store infinispan --node "$n" --nodes 3 \
    --jgroups-port "$jgroups_port" --port $((port + n)) >"$here/target/cluster-node-$n.out" 2>&1 &
  pids[$n]=$!
}

await() { # node number: returns once it answers, fails if it stopped
  local n=$1 out="$here/target/cluster-node-$1.out"
  for _ in $(seq 1 300); do
    if grep -q "The shop is running" "$out"; then echo "node $n: http://127.0.0.1:$((port + n))/shop/"; return 0; fi
    if ! kill -0 "${pids[$n]}" 2>/dev/null; then cat "$out" >&2; return 1; fi
    sleep 1
  done
  echo "node $n did not answer within 300 s; see $out" >&2
  return 1
}

# The first node creates the shop's tables and becomes the Infinispan coordinator; the others join it.
launch 0
await 0
launch 1
launch 2
await 1
await 2
echo
echo "The three-node shop is running; any node serves the page and the API. Press Ctrl-C to stop it."
wait
