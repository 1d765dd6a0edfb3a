#!/usr/bin/env bash
# Runs the demo shop on Payara Micro: builds the library and the demo WAR, fetches Payara Micro
# 6.2025.10 from Maven Central, starts it, and prints the URL once the shop answers.
#
#   bash examples/shop/run.sh                      # memory store, H2, http://127.0.0.1:8080/shop/
#   bash examples/shop/run.sh --port 8081
#   bash examples/shop/run.sh --postgres           # the shop's tables in PostgreSQL (SHOP_DB_* below)
#   bash examples/shop/run.sh --postgres --store jpa          # idempotency records in PostgreSQL too
#   bash examples/shop/run.sh --store infinispan --node 0     # one node of a cluster (see cluster.sh)
#
# Needs a JDK 17+ and Maven 3.8+. Ctrl-C stops the server.
# PostgreSQL settings (with --postgres): SHOP_DB_HOST (127.0.0.1), SHOP_DB_PORT (5432),
# SHOP_DB_NAME (shop), SHOP_DB_USER (postgres), SHOP_DB_PASSWORD (empty).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

port=8080
store=""
postgres=false
node=""
build=true

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --store) store="$2"; shift 2 ;;
    --postgres) postgres=true; shift ;;
    --node) node="$2"; shift 2 ;;
    --no-build) build=false; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

for tool in java mvn curl; do
  command -v "$tool" >/dev/null || { echo "$tool is needed on the PATH" >&2; exit 1; }
done

case "$store" in
  ""|memory|jpa|infinispan) ;;
  *) echo "--store must be memory, jpa or infinispan (got '$store')" >&2; exit 2 ;;
esac

profiles=""
if [ "$store" = infinispan ]; then
  profiles="-Pinfinispan"   # bundles infinispan-core into the WAR
fi

if $build; then
  echo "Building the library and the demo (the first run downloads dependencies and Payara Micro: a few minutes)..."
  (cd "$root" && mvn -B -q install -DskipTests -DskipITs)
  mvn -B -q -f "$here/pom.xml" package -DskipTests -DskipITs $profiles
fi

target="$here/target"
jar="$target/payara/payara-micro.jar"
war="$target/shop.war"
[ -f "$jar" ] && [ -f "$war" ] || { echo "missing $jar or $war: run without --no-build" >&2; exit 1; }

java_opts=(-Xmx768m)
payara_args=(--nocluster --port "$port" --deploy "$war")

# Settings for the library are MicroProfile Config keys; system properties beat the WAR's
# microprofile-config.properties, so a variant needs no rebuild of the configuration.
if [ -n "$store" ]; then
  java_opts+=("-Didempotency.store=$store")
fi
if [ "$store" = infinispan ]; then
  n="${node:-0}"
  java_opts+=(
    "-Didempotency.infinispan.config=idempotency-infinispan-cluster.xml"
    "-Didempotency.infinispan.bind-port=$((7800 + n))"
  )
fi

if $postgres; then
  # Points the server's default data source (java:comp/DefaultDataSource, used by the shop's tables
  # and by the JPA store) at PostgreSQL instead of the embedded H2.
  boot="$target/postgres-postboot.asadmin"
  props="user=${SHOP_DB_USER:-postgres}:serverName=${SHOP_DB_HOST:-127.0.0.1}:portNumber=${SHOP_DB_PORT:-5432}:databaseName=${SHOP_DB_NAME:-shop}"
  if [ -n "${SHOP_DB_PASSWORD:-}" ]; then
    props="$props:password=${SHOP_DB_PASSWORD}"
  fi
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
  sleep 1
done
echo "The shop did not answer within 300 s; the end of $log:" >&2
tail -n 40 "$log" >&2
exit 1
