#!/usr/bin/env bash
# Runs the demo shop on WildFly (run.sh --server wildfly calls this after the build): a fresh server
# base directory per port under target/, standalone.xml (MicroProfile Config, EJB, JPA through
# Hibernate on the H2 ExampleDS, which is java:comp/DefaultDataSource), shop.war deployed from the
# start. Prints the URL once the shop answers; Ctrl-C stops the server.
#   wildfly.sh <target folder> <http port> [store]
# JAVA_OPTS adds JVM options, such as -D<config key>=<value> for any MicroProfile Config key.
set -euo pipefail
target="$1"
port="$2"
store="${3:-}"

home="$(ls -d "$target"/wildfly-*/ 2>/dev/null | head -n 1)"
war="$target/shop.war"
[ -n "$home" ] && [ -f "$war" ] || { echo "missing WildFly or $war under $target: run run.sh without --no-build" >&2; exit 1; }
home="${home%/}"

# Every run starts from the configuration as unpacked, apart from other runs on other ports.
base="$target/wildfly-base-$port"
rm -rf "$base"
cp -r "$home/standalone" "$base"
cp "$war" "$base/deployments/shop.war"

opts=(-Xmx768m)
read -r -a extra <<<"${JAVA_OPTS:-}"
opts+=("${extra[@]}")
if [ -n "$store" ]; then
  opts+=("-Didempotency.store=$store")
fi

log="$target/run-wildfly-$port.log"
echo "Starting WildFly on port $port (log: $log)..."
# Management and HTTPS ports follow the HTTP port, so that two runs on different ports do not meet.
JAVA_OPTS="${opts[*]}" LAUNCH_JBOSS_IN_BACKGROUND=1 "$home/bin/standalone.sh" -c standalone.xml \
  -Djboss.server.base.dir="$base" -Djboss.bind.address=127.0.0.1 \
  -Djboss.http.port="$port" -Djboss.https.port=$((port + 363)) \
  -Djboss.management.http.port=$((port + 1910)) -Djboss.management.https.port=$((port + 1913)) \
  >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

url="http://127.0.0.1:$port/shop/"
for _ in $(seq 1 300); do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "WildFly stopped before the shop answered; the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  if [ -f "$base/deployments/shop.war.failed" ]; then
    echo "WildFly could not deploy the shop:" >&2
    cat "$base/deployments/shop.war.failed" >&2
    exit 1
  fi
  if curl -fsS -o /dev/null "${url}api/orders" 2>/dev/null; then
    echo
    echo "The shop is running on WildFly: $url"
    echo "Press Ctrl-C to stop it."
    wait "$server"
    exit $?
  fi
  sleep 1
done
echo "The shop did not answer within 300 s; the end of $log:" >&2
tail -n 40 "$log" >&2
exit 1
