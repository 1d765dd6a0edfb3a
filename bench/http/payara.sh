# Sourced by run.sh and profile/profile.sh: starts Payara Micro with the benchmark WAR and waits
# until it answers. Needs bash, java, curl; for the jpa store also psql and createdb.
#
#   start_payara STORE PORT WAR PAYARA_DIR RESULTS DB LOG
#
# STORE is the idempotency.store (memory, infinispan, jpa); for jpa the server's default data source
# points at PostgreSQL 127.0.0.1:5432, database DB (created when missing), pool of 8-64 connections.
# PAYARA_JAVA_OPTS adds JVM options (word-split: several options in one variable). Sets $server to
# the server's pid; exits the calling script if the server stops or does not answer within 180 s.
start_payara() {
  local store="$1" port="$2" war="$3" payara="$4" results="$5" db="$6" log="$7"
  local args=(--nocluster --port "$port" --deploy "$war")
  local opts=(-Xms1g -Xmx1g "-Didempotency.store=$store")
  # write.sh: the writing resource's joined operation, on the JPA store only (no other store can join).
  [ "$store" = jpa ] && opts+=("-Ddev.idempotency.bench.http.WritingResource/joined/Idempotent/transaction=joined")
  # shellcheck disable=SC2206
  [ -n "${PAYARA_JAVA_OPTS:-}" ] && opts+=($PAYARA_JAVA_OPTS)
  if [ "$store" = jpa ]; then
    psql -h 127.0.0.1 -U postgres -d postgres -tAc "select 1 from pg_database where datname='$db'" | grep -q 1 ||
      createdb -h 127.0.0.1 -U postgres "$db"
    local boot="$results/postgres-$port.asadmin"
    cat >"$boot" <<ASADMIN
create-jdbc-connection-pool --datasourceclassname=org.postgresql.ds.PGSimpleDataSource --restype=javax.sql.DataSource --steadypoolsize=8 --maxpoolsize=64 --property user=postgres:password=postgres:serverName=127.0.0.1:portNumber=5432:databaseName=$db bench-postgres
set resources.jdbc-resource.jdbc/__default.pool-name=bench-postgres
ASADMIN
    args+=(--addlibs "$payara/postgresql.jar" --postbootcommandfile "$boot")
  fi
  java "${opts[@]}" -jar "$payara/payara-micro.jar" "${args[@]}" >"$log" 2>&1 &
  server=$!
  for _ in $(seq 1 180); do
    kill -0 "$server" 2>/dev/null || { tail -n 40 "$log" >&2; echo "Payara Micro stopped ($log)" >&2; exit 1; }
    if curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' -d '{}' \
        "http://127.0.0.1:$port/bench/api/plain" 2>/dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "the benchmark WAR did not answer within 180 s ($log)" >&2
  exit 1
}
