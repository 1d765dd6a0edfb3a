#!/usr/bin/env bash
# The library on Helidon MP 4.2.0 (Java 21+): the same app on three class paths, one Maven run each.
#   core  helidon-microprofile-core, no Servlet, no JTA: memory and Redis stores
#   full  helidon-microprofile: memory, Redis, and the JPA store on a CDI data source (PostgreSQL)
#   jta   the full bundle and Helidon's JTA: the JPA store in the joined mode
# Needs the library installed in the local repository (mvn -B install), PostgreSQL (db test, user
# postgres) and Redis 7 on 127.0.0.1. Extra arguments go to every Maven run.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export JAVA_HOME="${EE11_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
variants="${HELIDON_VARIANTS:-core full jta}"

for variant in $variants; do
    echo "== Helidon MP 4.2.0: ${variant}"
    mvn -B -f "$here/pom.xml" verify "-P${variant}" "$@"
done
