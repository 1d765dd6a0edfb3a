#!/usr/bin/env bash
# Prepares the GlassFish that Maven unpacked (mvn -Pservices -Dit.server=glassfish verify) for the in-container tests:
# creates the domain "it" (again when this script changed), with every port moved by --portbase 20000 plus this checkout's
# IDEMPOTENCY_TEST_PORT_OFFSET (admin 20048, HTTP 20080), and points its default data source
# (jdbc/__default, java:comp/DefaultDataSource) at embedded Derby: GlassFish's default database,
# without the network Derby server on the fixed port 1527 that `asadmin start-database` would start.
# Then applies docs/servers.md's recipe for a PostgreSQL data source, as written there (../recipe.sh reads
# it): jdbc/IdempotencyStore, which JpaStoreFaultIT reaches through its TCP proxy (127.0.0.1:15434 plus the
# offset) on the tests' database. That takes one start of the domain.
# Writes target/servers/glassfish.properties, which failsafe passes to the tests and arquillian.xml reads.
#   setup.sh <glassfish home> <postgresql driver jar>   (GlassFish 7 or 8)
set -euo pipefail
home="$1"
driver="$2"
here="$(cd "$(dirname "$0")" && pwd)"
base=$((20000 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))
domain="$home/glassfish/domains/it"
proxy="127.0.0.1:$((15434 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))"
database="test${IDEMPOTENCY_TEST_NS:+_$IDEMPOTENCY_TEST_NS}"
# The domain is made again whenever this script, the recipe or its values changed.
stamp="$(cat "$0" "$here/../recipe.sh" "$here/../../../docs/servers.md" <(echo "$driver $proxy $database") \
  | sha256sum | cut -c1-64)"

if [ "$(cat "$domain/.idempotency-it" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$domain"
  log="$home/setup.log"
  if ! "$home/bin/asadmin" --user admin create-domain --nopassword=true --portbase "$base" it >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
  # The DerbyPool of a new domain is a client of the network server on localhost:1527; make it
  # embedded (the driver ships with GlassFish, like the EJB timer pool's), in the domain's own folder.
  perl -0pi -e 's{<jdbc-connection-pool ([^>]*)name="DerbyPool" datasource-classname="org\.apache\.derby\.jdbc\.ClientDataSource"([^>]*)>.*?</jdbc-connection-pool>}{<jdbc-connection-pool $1name="DerbyPool" datasource-classname="org.apache.derby.jdbc.EmbeddedDataSource"$2>\n      <property value="\${com.sun.aas.instanceRoot}/lib/databases/idempotency-it" name="databaseName" />\n      <property value=";create=true" name="connectionAttributes" />\n    </jdbc-connection-pool>}s' "$domain/config/domain.xml"
  grep -q 'EmbeddedDataSource' "$domain/config/domain.xml" || { echo "could not switch DerbyPool to embedded Derby" >&2; exit 1; }
  # The recipe: "asadmin add-library <driver>", then its commands, on the running domain.
  asadmin=("$home/bin/asadmin" --user admin --port $((base + 48)))
  bash "$here/../recipe.sh" "Payara and GlassFish" "$proxy" "$database" >"$domain/postgres-datasource.asadmin"
  if ! { "${asadmin[@]}" start-domain it && "${asadmin[@]}" add-library "$driver" \
      && "${asadmin[@]}" multimode --file "$domain/postgres-datasource.asadmin" \
      && "${asadmin[@]}" stop-domain it; } >>"$log" 2>&1; then
    cat "$log" >&2
    "${asadmin[@]}" stop-domain it >/dev/null 2>&1 || true
    exit 1
  fi
  echo "$stamp" >"$domain/.idempotency-it"
fi

# The Arquillian adapter starts and stops the domain with "java -jar <its home>/glassfish/modules/admin-cli.jar",
# which GlassFish 8 no longer has. For it, the adapter's home is a folder of its own: the domains of this
# installation, and an admin-cli.jar (AsadminShim) that runs this installation's bin/asadmin.
adapter_home="$home"
if [ ! -f "$home/glassfish/modules/admin-cli.jar" ]; then
  adapter_home="$home-adapter"
  rm -rf "$adapter_home"
  mkdir -p "$adapter_home/glassfish/modules" "$adapter_home/classes"
  ln -s "$home/glassfish/domains" "$adapter_home/glassfish/domains"
  javac -d "$adapter_home/classes" "$(dirname "$0")/AsadminShim.java"
  printf 'Main-Class: AsadminShim\n' >"$adapter_home/manifest.txt"
  jar --create --file "$adapter_home/glassfish/modules/admin-cli.jar" --manifest "$adapter_home/manifest.txt" \
    -C "$adapter_home/classes" .
  echo "$home/bin/asadmin" >"$adapter_home/glassfish/modules/asadmin.path"
fi

cat >"$(dirname "$home")/glassfish.properties" <<PROPS
it.glassfish.adminPort=$((base + 48))
it.glassfish.httpPort=$((base + 80))
it.glassfish.home=$adapter_home
PROPS
echo "GlassFish domain it ready in $domain (HTTP 127.0.0.1:$((base + 80)), admin $((base + 48)))"
