#!/usr/bin/env bash
# Plots throughput against connections from a summary.csv of run.sh or write.sh: one panel per store,
# one line per scenario found in it (median requests/s, with min-max bars).
#
#   bash bench/http/plot.sh [summary.csv] [out.png]     # default: docs/benchmarks-http.png
#   bash bench/http/plot.sh bench/http/results-write/summary.csv docs/benchmarks-http-write.png
#
# Needs gnuplot (Debian: apt-get install gnuplot-nox).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
summary="${1:-$here/results/summary.csv}"
out="${2:-$here/../../docs/benchmarks-http.png}"
command -v gnuplot >/dev/null || { echo "gnuplot is needed (apt-get install gnuplot-nox)" >&2; exit 1; }
data="$(mktemp -d "${TMPDIR:-/tmp}/bench-plot.XXXXXX")"
trap 'rm -rf "$data"' EXIT

stores=$(tail -n +2 "$summary" | cut -d, -f1 | sort -u)
# One file per store and scenario: connections, median, min, max (sorted by connections).
# The scenarios of run.sh and write.sh, in the order they are drawn, and their legends.
order="plain separate joined newkey replay"
legend() {
  case "$1" in
    plain) echo "unguarded" ;;
    newkey) echo "guarded, new key" ;;
    separate) echo "guarded, new key, separate mode" ;;
    joined) echo "guarded, new key, joined mode" ;;
    replay) echo "guarded, replay" ;;
  esac
}
for store in $stores; do
  for scenario in $order; do
    awk -F, -v s="$store" -v n="$scenario" 'NR > 1 && $1 == s && $2 == n { print $3, $5, $6, $7 }' "$summary" |
      sort -n >"$data/$store-$scenario.dat"
  done
done

count=$(echo "$stores" | wc -w)
{
  width=$((560 * count)); [ "$width" -ge 900 ] || width=900
  echo "set terminal pngcairo size $width,440 font 'Sans,10'"
  echo "set output '$out'"
  if [ "$stores" = jpa-write ]; then
    what="POST writing one row to PostgreSQL in a JTA transaction"
  else
    what="Trivial POST"
  fi
  echo "set multiplot layout 1,$count title '$what on Payara Micro 6.2025.10, wrk on 127.0.0.1, 2 vCPUs (medians)'"
  echo "set logscale x 2"
  echo "set xlabel 'connections'"
  echo "set ylabel 'requests/s'"
  echo "set yrange [0:*]"
  echo "set grid"
  echo "set key top left"
  for store in $stores; do
    if [ "$store" = jpa-write ]; then
      echo "set title 'idempotency.store=jpa, on the same PostgreSQL'"
    else
      echo "set title 'idempotency.store=$store'"
    fi
    lines=()
    for scenario in $order; do
      if [ -s "$data/$store-$scenario.dat" ]; then
        lines+=("'$data/$store-$scenario.dat' using 1:2:3:4 with yerrorlines lw 2 title '$(legend "$scenario")'")
      fi
    done
    (IFS=,; echo "plot ${lines[*]}")
  done
  echo "unset multiplot"
} | gnuplot
echo "wrote $out"
