#!/usr/bin/env bash
# Plots throughput against connections from bench/http/results/summary.csv (written by run.sh):
# one panel per store, one line per scenario (median requests/s, with min-max bars).
#
#   bash bench/http/plot.sh [summary.csv] [out.png]     # default: docs/benchmarks-http.png
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
for store in $stores; do
  for scenario in plain newkey replay; do
    awk -F, -v s="$store" -v n="$scenario" 'NR > 1 && $1 == s && $2 == n { print $3, $5, $6, $7 }' "$summary" |
      sort -n >"$data/$store-$scenario.dat"
  done
done

count=$(echo "$stores" | wc -w)
{
  echo "set terminal pngcairo size $((560 * count)),440 font 'Sans,10'"
  echo "set output '$out'"
  echo "set multiplot layout 1,$count title 'Trivial POST on Payara Micro 6.2025.10, wrk on 127.0.0.1, 2 vCPUs (medians)'"
  echo "set logscale x 2"
  echo "set xlabel 'connections'"
  echo "set ylabel 'requests/s'"
  echo "set yrange [0:*]"
  echo "set grid"
  echo "set key top left"
  for store in $stores; do
    echo "set title 'idempotency.store=$store'"
    echo "plot '$data/$store-plain.dat' using 1:2:3:4 with yerrorlines lw 2 title 'unguarded', \\"
    echo "     '$data/$store-newkey.dat' using 1:2:3:4 with yerrorlines lw 2 title 'guarded, new key', \\"
    echo "     '$data/$store-replay.dat' using 1:2:3:4 with yerrorlines lw 2 title 'guarded, replay'"
  done
  echo "unset multiplot"
} | gnuplot
echo "wrote $out"
