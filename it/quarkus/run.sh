#!/usr/bin/env bash
# The library on Quarkus 3 never runs an @Idempotent method unguarded: packages the app in this directory
# (the library's jar, quarkus-rest, quarkus-rest-jsonb, quarkus-arc and nothing else), starts it on
# 127.0.0.1 and checks that it either refuses to start with the library's own explanation or guards every
# method (src/test/java/demo/NeverUnguardedIT.java); and that it starts and guards its CDI methods, those
# declared on an interface or a superclass among them, and refuses an invalid config value
# (src/test/java/demo/CdiOnQuarkusIT.java); and the HTTP guard on Quarkus REST: replay, 409, 422, 400 and
# concurrency (src/test/java/demo/HttpOnQuarkusIT.java). Needs the library installed in the local Maven
# repository first (`mvn -B install -DskipTests -DskipITs` at the repository root).
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
exit "$status"
