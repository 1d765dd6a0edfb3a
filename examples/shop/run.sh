#!/usr/bin/env bash
# Runs the demo shop on Payara Micro: builds the library and the demo WAR, fetches Payara Micro
# 6.2025.10 from Maven Central, starts it, and prints the URL once the shop answers.
#
#   bash examples/shop/run.sh                      # memory store, H2, http://127.0.0.1:8080/shop/
#   bash examples/shop/run.sh --port 8081
#   bash examples/shop/run.sh --postgres           # the shop's tables in PostgreSQL (SHOP_DB_* below)
#   bash examples/shop/run.sh --postgres --store jpa          # idempotency records in PostgreSQL too
#   bash examples/shop/run.sh --store redis        # idempotency records in Redis (127.0.0.1:6379, or
#        JAVA_OPTS=-Didempotency.redis.uri=redis://host:port)
#   bash examples/shop/run.sh --postgres --store infinispan --node 0 --port 8080   # one node of a
#        three-node cluster on this machine (cluster.sh starts all three)
#   bash examples/shop/run.sh --server wildfly     # on WildFly 39 instead (memory store; --store jpa
#        uses its H2 ExampleDS through Hibernate); --postgres and --node are Payara Micro only
#
# Needs a JDK 17+ and Maven 3.8+. Ctrl-C stops the server. JAVA_OPTS adds JVM options, such as
# -D<config key>=<value> for any MicroProfile Config key (they beat microprofile-config.properties).
# PostgreSQL settings (with --postgres): SHOP_DB_HOST (127.0.0.1), SHOP_DB_PORT (5432),
# SHOP_DB_NAME (shop), SHOP_DB_USER (postgres), SHOP_DB_PASSWORD (postgres; ignored by a server
# that trusts local connections). Create the database first: createdb -h 127.0.0.1 -U postgres shop
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

port=8080
store=""
postgres=false
node=""
nodes=3
jgroups_port=7800
build=true
server=payara

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --store) store="$2"; shift 2 ;;
    --postgres) postgres=true; shift ;;
    --node) node="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --jgroups-port) jgroups_port="$2"; shift 2 ;;
    --no-build) build=false; shift ;;
    --server) server="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

for tool in java mvn curl; do
  command -v "$tool" >/dev/null || { echo "$tool is needed on the PATH" >&2; exit 1; }
done

case "$store" in
  ""|memory|jpa|infinispan|redis) ;;
  *) echo "--store must be memory, jpa, infinispan or redis (got '$store')" >&2; exit 2 ;;
esac

case "$server" in
  payara) ;;
  wildfly)
    if $postgres || [ -n "$node" ]; then
      echo "--postgres and --node need Payara Micro (the default server); see README.md for WildFly" >&2
      exit 2
    fi ;;
  *) echo "--server must be payara or wildfly (got '$server')" >&2; exit 2 ;;
esac

profiles=""
if [ "$store" = infinispan ]; then
  profiles="-Pinfinispan"   # bundles infinispan-core into the WAR
fi
if [ "$store" = redis ]; then
  profiles="-Predis"   # bundles the Jedis client into the WAR
fi
if [ "$server" = wildfly ]; then
  profiles="$profiles -Pwildfly"   # unpacks WildFly into target/
fi

if $build; then
  echo "Building the library and the demo (the first run downloads dependencies and Payara Micro: a few minutes)..."
  build_log="$(mktemp "${TMPDIR:-/tmp}/shop-build.XXXXXX")"
  if ! { (cd "$root" && mvn -B install -DskipTests -DskipITs) &&
         mvn -B -f "$here/pom.xml" package -DskipTests -DskipITs $profiles; } >"$build_log" 2>&1; then
    tail -n 60 "$build_log" >&2
    echo "The build failed; its whole log: $build_log" >&2
    exit 1
  fi
  rm -f "$build_log"
fi

target="$here/target"

if [ "$server" = wildfly ]; then
  exec bash "$here/wildfly.sh" "$target" "$port" "$store"
fi

jar="$target/payara/payara-micro.jar"
war="$target/shop.war"
[ -f "$jar" ] && [ -f "$war" ] || { echo "missing $jar or $war: run without --no-build" >&2; exit 1; }

java_opts=(-Xmx768m)
# Extra JVM options, e.g. JAVA_OPTS=-Dshop.settlement.interval=PT5S (any MicroProfile Config key).
read -r -a extra <<<"${JAVA_OPTS:-}"
java_opts+=("${extra[@]}")
payara_args=(--nocluster --port "$port" --deploy "$war")

# Settings for the library are MicroProfile Config keys; system properties beat the WAR's
# microprofile-config.properties, so a variant needs no rebuild of the configuration.
if [ -n "$store" ]; then
  java_opts+=("-Didempotency.store=$store")
fi
if [ "$store" = infinispan ] && [ -n "$node" ]; then
  # Node N of a cluster on this machine: JGroups on jgroups-port + N, every member listed.
  hosts=""
  for ((i = 0; i < nodes; i++)); do hosts="${hosts:+$hosts,}127.0.0.1[$((jgroups_port + i))]"; done
  java_opts+=(
    "-Didempotency.infinispan.config=idempotency-infinispan-cluster.xml"
    "-Didempotency.infinispan.bind-address=127.0.0.1"
    "-Didempotency.infinispan.bind-port=$((jgroups_port + node))"
    "-Didempotency.infinispan.initial-hosts=$hosts"
    # The node's RAFT log: it outlives the process, so a restarted node rejoins with what it had.
    "-Didempotency.infinispan.state-dir=$target/raft-state"
  )
fi

if $postgres; then
  # Points the server's default data source (java:comp/DefaultDataSource, used by the shop's tables
  # and by the JPA store) at PostgreSQL instead of the embedded H2.
  boot="$target/postgres-postboot-$port.asadmin"
  # The pool needs a password property even when the server trusts local connections.
  props="user=${SHOP_DB_USER:-postgres}:password=${SHOP_DB_PASSWORD:-postgres}:serverName=${SHOP_DB_HOST:-127.0.0.1}:portNumber=${SHOP_DB_PORT:-5432}:databaseName=${SHOP_DB_NAME:-shop}"
  cat > "$boot" <<EOF
create-jdbc-connection-pool --datasourceclassname=org.postgresql.ds.PGSimpleDataSource --restype=javax.sql.DataSource --isconnectvalidatereq=true --validationmethod=auto-commit --property $props shop-postgres
set resources.jdbc-resource.jdbc/__default.pool-name=shop-postgres
EOF
  payara_args+=(--addlibs "$target/payara/postgresql.jar" --postbootcommandfile "$boot")
fi

log="$target/run-$port.log"
echo "Starting Payara Micro on port $port (log: $log)..."
java "${java_opts[@]}" -jar "$jar" "${payara_args[@]}" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

url="http://127.0.0.1:$port/shop/"
grace=20   # seconds the shop may take to answer once Payara reports the deployment done
for _ in $(seq 1 300); do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "Payara Micro stopped before the shop answered; the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  if curl -fsS -o /dev/null "${url}api/orders" 2>/dev/null; then
    echo
    echo "The shop is running: $url"
    echo "Press Ctrl-C to stop it."
    wait "$server"
    exit $?
  fi
  if grep -q "Deployed [0-9]* archive" "$log"; then
    grace=$((grace - 1))
    if [ "$grace" -le 0 ]; then
      echo "Payara Micro is up but the shop does not answer: the deployment failed. Errors from $log:" >&2
      grep -A3 "SEVERE" "$log" | grep -v "^\s*at " | head -n 40 >&2
      exit 1
    fi
  fi
  sleep 1
done
echo "The shop did not answer within 300 s; the end of $log:" >&2
tail -n 40 "$log" >&2
exit 1
