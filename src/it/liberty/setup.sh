#!/usr/bin/env bash
# Prepares the Open Liberty that Maven unpacked (mvn -Pservices -Dit.server=liberty verify) for the in-container tests:
# the server "it" with src/it/liberty/server.xml, the H2 driver of its default data source, the
# PostgreSQL driver of the data sources the test applications define, docs/servers.md's data source, and
# ports moved by this checkout's IDEMPOTENCY_TEST_PORT_OFFSET (HTTP 17080, HTTPS 17443) in its
# bootstrap.properties. Writes liberty.properties next to <wlp home>, which failsafe passes to the tests
# and arquillian.xml reads.
#   setup.sh <wlp home> <folder holding h2.jar and postgresql.jar> [web profile feature]
# The web profile feature is webProfile-10.0 unless given (webProfile-11.0 for Jakarta EE 11).
set -euo pipefail
home="$1"
lib="$2"
profile="${3:-webProfile-10.0}"
here="$(cd "$(dirname "$0")" && pwd)"
offset=${IDEMPOTENCY_TEST_PORT_OFFSET:-0}
server="$home/usr/servers/it"

mkdir -p "$server/lib"
# Fault Tolerance 4.0 is MicroProfile 6 (Jakarta EE 10); 4.1 goes with Jakarta EE 11.
ft=mpFaultTolerance-4.0
if [ "$profile" != "${profile%-11.0}" ]; then ft=mpFaultTolerance-4.1; fi
sed -e "s|<feature>webProfile-10.0</feature>|<feature>$profile</feature>|" \
    -e "s|<feature>mpFaultTolerance-4.0</feature>|<feature>$ft</feature>|" "$here/server.xml" >"$server/server.xml"
cp "$lib/h2.jar" "$lib/postgresql.jar" "$server/lib/"
# The Open Liberty recipe of docs/servers.md ("A PostgreSQL data source"), as written there (../recipe.sh
# reads it): jdbc/IdempotencyStore, which JpaStoreFaultIT reaches through its TCP proxy (127.0.0.1:15434
# plus the offset) on the tests' database. server.xml includes this file.
{
  echo '<server>'
  bash "$here/../recipe.sh" "Open Liberty" "127.0.0.1:$((15434 + offset))" "test${IDEMPOTENCY_TEST_NS:+_$IDEMPOTENCY_TEST_NS}"
  echo '</server>'
} >"$server/postgres-datasource.xml"
cat >"$server/bootstrap.properties" <<PROPS
it.http.port=$((17080 + offset))
it.https.port=$((17443 + offset))
PROPS

cat >"$(dirname "$home")/liberty.properties" <<PROPS
it.liberty.httpPort=$((17080 + offset))
PROPS
echo "Open Liberty server it ($profile) ready in $server (HTTP 127.0.0.1:$((17080 + offset)))"
