#!/usr/bin/env bash
# The library on Quarkus 3 never runs an @Idempotent method unguarded: packages the app in this directory
# (the library's jar, quarkus-rest, quarkus-rest-jsonb, quarkus-arc and nothing else), starts it on
# 127.0.0.1 and checks that it either refuses to start with the library's own explanation or guards every
# method (src/test/java/demo/NeverUnguardedIT.java); and that it starts and guards its CDI methods, those
# declared on an interface or a superclass among them, and refuses an invalid config value
# (src/test/java/demo/CdiOnQuarkusIT.java); and the HTTP guard on Quarkus REST: replay, 409, 422, 400 and
# concurrency (src/test/java/demo/HttpOnQuarkusIT.java). The last two again:
# - on the Redis store (Redis 7 on 127.0.0.1:6379, -Predis), with the readiness check, the meters in
#   Micrometer's /q/metrics and the instruments OpenTelemetry exports (HealthOnQuarkusIT,
#   MetricsOnQuarkusIT, OpenTelemetryOnQuarkusIT);
# - on the JPA store on Quarkus's default data source (Agroal and Narayana, PostgreSQL on 127.0.0.1:5432,
#   db test, user postgres, -Pjpa), with guarded calls inside committed and rolled-back transactions
#   (JtaOnQuarkusIT) and the store on a named data source (JpaOnNamedDataSourceIT);
# - on the Infinispan store (-Pinfinispan), one node and a RAFT cluster of two apps (ClusterOnQuarkusIT).
# Then that a build with an invalid config value fails, and one with refused toolkit methods. Needs the
# library installed in the local Maven repository first (`mvn -B install -DskipTests -DskipITs` at the
# repository root).
#   bash it/quarkus/run.sh              # the app as the README has it
#   bash it/quarkus/run.sh -Pwith-apis  # plus the Servlet and JTA APIs
# Other arguments go to Maven; -Dit.port=<first port> moves the app off 24080 (it takes the first free one
# of the hundred ports from there).
set -euo pipefail
cd "$(dirname "$0")"

jar="$HOME/.m2/repository/dev/idempotency/idempotency-ee/0.1.0-SNAPSHOT/idempotency-ee-0.1.0-SNAPSHOT.jar"
if [[ ! -f "$jar" && " $* " != *"-Dmaven.repo.local="* ]]; then
  echo "the library is not installed ($jar is missing): run \`mvn -B install -DskipTests -DskipITs\`" \
       "at the repository root first" >&2
  exit 1
fi

status=0
mvn -B clean verify "$@" || status=$?
if [[ -f target/it/app.log ]]; then echo "the app's output: $(pwd)/target/it/app.log"; fi

# The same HTTP and CDI checks on the Redis store (Redis 7 on 127.0.0.1:6379), its readiness check, and the
# library's metrics in the Prometheus scrape of Micrometer and in what OpenTelemetry's SDK exports.
mvn -B clean verify -Predis \
  -Dit.test='HttpOnQuarkusIT,CdiOnQuarkusIT,HealthOnQuarkusIT,MetricsOnQuarkusIT,OpenTelemetryOnQuarkusIT' "$@" \
  || status=$?

# And on the JPA store, on the app's default Agroal data source (PostgreSQL on 127.0.0.1:5432, db test), and on a named one.
mvn -B clean verify -Pjpa -Dit.test='HttpOnQuarkusIT,CdiOnQuarkusIT,JtaOnQuarkusIT,JpaOnNamedDataSourceIT' "$@" || status=$?

# And on the Infinispan store: one node (a local cache in the app's heap), and a RAFT cluster of two.
mvn -B clean verify -Pinfinispan -Dit.test='HttpOnQuarkusIT,CdiOnQuarkusIT,ClusterOnQuarkusIT' "$@" || status=$?

# The library's build-compatible extension checks the configuration when Quarkus builds the app: a build
# with invalid values fails with the library's message naming each key (a core and an HTTP one).
build_log=target/it/build-invalid-config.log
mkdir -p target/it
if mvn -B package -DskipTests -DskipITs -Didempotency.ttl=banana -Didempotency.http.key-max-length=banana \
    "$@" >"$build_log" 2>&1; then
  echo "FAILED: the build with invalid idempotency.* values succeeded: the library did not check the" \
       "build's configuration ($(pwd)/$build_log)" >&2
  status=1
else
  for key in idempotency.ttl idempotency.http.key-max-length; do
    if grep -q "Config key '$key' is 'banana'" "$build_log"; then
      echo "the build with $key=banana failed with the library's message, as it must"
    else
      echo "FAILED: the build with $key=banana did not fail with the library's message" \
           "($(pwd)/$build_log)" >&2
      status=1
    fi
  done
fi
# And toolkit methods it refuses (src/bad-toolkit: a @ClusterLock job returning a value, an
# @IdempotentConsumer without a @MessageId): the build fails naming each, as a Jakarta EE deployment does.
toolkit_log=target/it/build-bad-toolkit.log
if mvn -B package -DskipTests -DskipITs -Pbad-toolkit "$@" >"$toolkit_log" 2>&1; then
  echo "FAILED: the build with refused @ClusterLock and @IdempotentConsumer methods succeeded" \
       "($(pwd)/$toolkit_log)" >&2
  status=1
else
  for method in 'demo.BrokenJobs#report returns String' 'demo.BrokenJobs#onMessage has no @MessageId'; do
    if grep -q "$method" "$toolkit_log"; then
      echo "the build with a refused toolkit method failed naming it ($method), as it must"
    else
      echo "FAILED: the build with refused toolkit methods did not name '$method' ($(pwd)/$toolkit_log)" >&2
      status=1
    fi
  done
fi
exit "$status"
