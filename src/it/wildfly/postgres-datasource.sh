#!/usr/bin/env bash
# The recipe of docs/servers.md ("WildFly and PostgreSQL"), as the in-container tests apply it: the PostgreSQL
# driver as a module, and a data source for the JPA store whose pool validates a connection before handing it out
# and drops one that failed fatally, so that the store serves again within seconds of a database outage.
#   postgres-datasource.sh <wildfly home> <postgresql driver jar> <jndi name> <host:port> <database>
# Offline (embed-server) on standalone-full.xml, with the server stopped.
set -euo pipefail
home="$1" driver="$2" jndi="$3" address="$4" database="$5"
commands="$(mktemp)"
trap 'rm -f "$commands"' EXIT
cat >"$commands" <<CLI
embed-server --server-config=standalone-full.xml --std-out=discard
module add --name=org.postgresql --resources=$driver --dependencies=java.se,jakarta.transaction.api
/subsystem=datasources/jdbc-driver=postgresql:add(driver-name=postgresql, driver-module-name=org.postgresql, driver-xa-datasource-class-name=org.postgresql.xa.PGXADataSource)
data-source add --name=IdempotencyStore --jndi-name=$jndi --driver-name=postgresql --connection-url=jdbc:postgresql://$address/$database --user-name=postgres --password=postgres --min-pool-size=2 --max-pool-size=48 --validate-on-match=true --background-validation=false --valid-connection-checker-class-name=org.jboss.jca.adapters.jdbc.extensions.postgres.PostgreSQLValidConnectionChecker --exception-sorter-class-name=org.jboss.jca.adapters.jdbc.extensions.postgres.PostgreSQLExceptionSorter
stop-embedded-server
CLI
JAVA_OPTS="${JAVA_OPTS:--Xmx256m}" "$home/bin/jboss-cli.sh" --file="$commands"
