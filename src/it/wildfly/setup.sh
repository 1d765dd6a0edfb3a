#!/usr/bin/env bash
# Prepares the WildFly that Maven unpacked (mvn -Pservices -Dit.server=wildfly verify) for the in-container tests:
# applies setup.cli (again when it changed), and writes target/servers/wildfly.properties, which failsafe passes to the
# tests and arquillian.xml reads. Every port of the server is moved by 10000 plus this checkout's
# IDEMPOTENCY_TEST_PORT_OFFSET (jboss.socket.binding.port-offset): HTTP 18080, management 19990.
#   setup.sh <wildfly home>
set -euo pipefail
home="$1"
here="$(cd "$(dirname "$0")" && pwd)"
offset=$((10000 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))

# Applied again whenever setup.cli changed, each time on the configuration as unpacked.
config="$home/standalone/configuration/standalone-full.xml"
stamp="$(sha256sum "$here/setup.cli" | cut -c1-64)"
if [ "$(cat "$home/.idempotency-it" 2>/dev/null)" != "$stamp" ]; then
  [ -f "$config.orig" ] || cp "$config" "$config.orig"
  cp "$config.orig" "$config"
  log="$home/setup-cli.log"
  if ! JAVA_OPTS="-Xmx256m" "$home/bin/jboss-cli.sh" --file="$here/setup.cli" >"$log" 2>&1; then
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
