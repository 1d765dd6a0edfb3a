#!/usr/bin/env bash
# Prints one recipe of docs/servers.md ("A PostgreSQL data source") as written there, with the example's
# values (db.example:5432, database orders, user app, password secret, /path/to/postgresql-*.jar)
# replaced by the tests' own: the in-container run applies the documented commands, not a copy of them.
#   recipe.sh <lead> <host:port> <database> [driver jar]
# <lead>: the bold words its paragraph starts with ("WildFly", "Payara and GlassFish", "Open Liberty").
set -euo pipefail
lead="$1" address="$2" database="$3" driver="${4:-}"
docs="$(cd "$(dirname "$0")/../.." && pwd)/docs/servers.md"
host="${address%:*}" port="${address##*:}"
block="$(awk -v lead="**$lead**" '
  index($0, lead) == 1 { found = 1 }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' "$docs")"
if [ -z "$block" ]; then
  echo "recipe.sh: no code block after a paragraph starting with **$lead** in $docs" >&2
  exit 1
fi
printf '%s\n' "$block" | sed -e "s/db\.example/$host/g" -e "s/5432/$port/g" -e "s/orders/$database/g" \
  -e 's/=app\([ :]\)/=postgres\1/g' -e 's/"app"/"postgres"/g' -e 's/secret/postgres/g' \
  -e "s|/path/to/postgresql-[0-9.]*\.jar|$driver|g"
