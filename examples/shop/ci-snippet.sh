#!/usr/bin/env bash
# Proposed .ci/run: the current one (start the databases when they are down, run the README's test
# command) plus the demo shop: install Chromium and its driver from Debian when missing, then run the
# demo's tests against the library just installed.
#
# The README's test command becomes:
#   mvn -B install && mvn -B -f examples/shop/pom.xml verify
set -euo pipefail
cd "$(dirname "$0")/../.."   # as .ci/run, this line is: cd "$(dirname "$0")/.."

wait_for() { # name, command...
  local name=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then echo "$name is up"; return 0; fi
    sleep 1
  done
  echo "$name did not come up within 60 s" >&2
  return 1
}

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi
wait_for PostgreSQL pg_isready -q -h 127.0.0.1 -p 5432

if ! mariadb-admin -h 127.0.0.1 -P 3306 -uroot ping >/dev/null 2>&1; then
  echo "starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi
wait_for MariaDB mariadb-admin -h 127.0.0.1 -P 3306 -uroot ping

# The demo's browser test drives the Debian packages; nothing downloads a browser or a driver.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "installing chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
chromium --version
chromedriver --version

# The test command from README.md: the library's tests, then the demo's (on the jar just installed).
mvn -B install
mvn -B -f examples/shop/pom.xml verify
