#!/usr/bin/env bash
# Prepares the WildFly that Maven unpacked (mvn -Pservices -Dit.server=wildfly verify) for the in-container tests:
# applies setup.cli (again when it changed), and writes target/servers/wildfly.properties, which failsafe passes to the
# tests and arquillian.xml reads. Every port of the server is moved by 10000 plus this checkout's
# IDEMPOTENCY_TEST_PORT_OFFSET (jboss.socket.binding.port-offset): HTTP 18080, management 19990.
# Then the PostgreSQL data source of docs/servers.md (postgres-datasource.sh), which JpaStoreFaultIT reaches through
# its TCP proxy (127.0.0.1:15434 plus the offset) on the tests' database.
#   setup.sh <wildfly home> <postgresql driver jar>
set -euo pipefail
home="$1"
driver="$2"
here="$(cd "$(dirname "$0")" && pwd)"
offset=$((10000 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))
proxy="127.0.0.1:$((15434 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))"
database="test${IDEMPOTENCY_TEST_NS:+_$IDEMPOTENCY_TEST_NS}"

# Applied again whenever setup.cli, the recipe or its values changed, each time on the configuration as unpacked.
config="$home/standalone/configuration/standalone-full.xml"
stamp="$(cat "$here/setup.cli" "$here/postgres-datasource.sh" "$here/../recipe.sh" "$here/../../../docs/servers.md" \
  <(echo "$driver $proxy $database") | sha256sum | cut -c1-64)"
if [ "$(cat "$home/.idempotency-it" 2>/dev/null)" != "$stamp" ]; then
  [ -f "$config.orig" ] || cp "$config" "$config.orig"
  cp "$config.orig" "$config"
  log="$home/setup-cli.log"
  if ! JAVA_OPTS="-Xmx256m" "$home/bin/jboss-cli.sh" --file="$here/setup.cli" >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
  rm -rf "$home/modules/org/postgresql"
  if ! bash "$here/postgres-datasource.sh" "$home" "$driver" "$proxy" "$database" >>"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
  echo "$stamp" >"$home/.idempotency-it"
fi

cat >"$(dirname "$home")/wildfly.properties" <<PROPS
it.wildfly.portOffset=$offset
it.wildfly.httpPort=$((8080 + offset))
it.wildfly.managementPort=$((9990 + offset))
PROPS
echo "WildFly ready in $home (HTTP 127.0.0.1:$((8080 + offset)), management $((9990 + offset)))"
