#!/usr/bin/env bash
# The WildFly recipe of docs/servers.md ("A PostgreSQL data source"), as written there (../recipe.sh
# reads it), applied as the in-container tests need it: the PostgreSQL driver as a module, and the data
# source java:jboss/datasources/IdempotencyStore, whose pool validates a connection before handing it
# out and drops one that failed fatally, so that the store serves again within seconds of an outage.
#   postgres-datasource.sh <wildfly home> <postgresql driver jar> <host:port> <database>
# Offline (embed-server) on standalone-full.xml, with the server stopped.
set -euo pipefail
home="$1" driver="$2" address="$3" database="$4"
commands="$(mktemp)"
trap 'rm -f "$commands"' EXIT
bash "$(dirname "$0")/../recipe.sh" WildFly "$address" "$database" "$driver" >"$commands"
JAVA_OPTS="${JAVA_OPTS:--Xmx256m}" "$home/bin/jboss-cli.sh" --file="$commands"
