#!/usr/bin/env bash
# Writes the post-boot command file of docs/servers.md's PostgreSQL recipe for Payara ("Payara and
# GlassFish"), as written there (../recipe.sh reads it): jdbc/IdempotencyStore on the tests' database,
# through JpaStoreFaultIT's TCP proxy (127.0.0.1:15434 plus IDEMPOTENCY_TEST_PORT_OFFSET). The Jakarta EE 11
# run boots Payara Micro with "--addlibs <driver> --postbootcommandfile <this file>", as the recipe
# says (pom.xml, profile ee11; arquillian.xml).
#   setup.sh <command file to write>
set -euo pipefail
out="$1"
mkdir -p "$(dirname "$out")"
bash "$(dirname "$0")/../recipe.sh" "Payara and GlassFish" "127.0.0.1:$((15434 + ${IDEMPOTENCY_TEST_PORT_OFFSET:-0}))" \
  "test${IDEMPOTENCY_TEST_NS:+_$IDEMPOTENCY_TEST_NS}" >"$out"
