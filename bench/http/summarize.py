"""Medians of bench/http/results/raw.csv per store, scenario and connection count, with the
guarded/unguarded throughput ratio of each round (runs taken side by side) and its median.

Usage: python3 summarize.py raw.csv summary.csv
"""
import csv
import statistics
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
by = defaultdict(list)
for r in rows:
    by[(r["store"], r["scenario"], int(r["connections"]))].append(r)

# The ratio of each round, paired by round: the plain run just before the guarded one.
rps = {(r["store"], r["scenario"], int(r["connections"]), r["round"]): float(r["requests_per_s"]) for r in rows}

with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["store", "scenario", "connections", "rounds", "median_requests_per_s", "min_requests_per_s",
                "max_requests_per_s", "median_p50_ms", "median_p99_ms", "median_ratio_to_plain",
                "bad_answers", "socket_errors"])
    for (store, scenario, c), runs in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
        values = [float(r["requests_per_s"]) for r in runs]
        ratios = [rps[(store, scenario, c, r["round"])] / rps[(store, "plain", c, r["round"])]
                  for r in runs if (store, "plain", c, r["round"]) in rps]
        w.writerow([store, scenario, c, len(runs), f"{statistics.median(values):.0f}", f"{min(values):.0f}",
                    f"{max(values):.0f}",
                    f"{statistics.median(float(r['p50_ms']) for r in runs):.3f}",
                    f"{statistics.median(float(r['p99_ms']) for r in runs):.3f}",
                    f"{statistics.median(ratios):.2f}" if ratios else "",
                    sum(int(r["bad_answers"]) for r in runs), sum(int(r["socket_errors"]) for r in runs)])

# Optional third argument: the same medians as a markdown table (for docs/performance.md).
if len(sys.argv) > 3:
    table = list(csv.DictReader(open(sys.argv[2])))
    with open(sys.argv[3], "w") as f:
        f.write("| store | connections | unguarded req/s | new key req/s (ratio) | replay req/s (ratio) "
                "| p50 ms unguarded / new key / replay | p99 ms unguarded / new key / replay |\n")
        f.write("|---|---|---|---|---|---|---|\n")
        cells = {(r["store"], int(r["connections"]), r["scenario"]): r for r in table}
        for store, c in sorted({(r["store"], int(r["connections"])) for r in table}):
            p, n, rp = (cells[(store, c, s)] for s in ("plain", "newkey", "replay"))
            f.write(f"| {store} | {c} | {int(p['median_requests_per_s']):,} "
                    f"| {int(n['median_requests_per_s']):,} ({n['median_ratio_to_plain']}) "
                    f"| {int(rp['median_requests_per_s']):,} ({rp['median_ratio_to_plain']}) "
                    f"| {p['median_p50_ms']} / {n['median_p50_ms']} / {rp['median_p50_ms']} "
                    f"| {p['median_p99_ms']} / {n['median_p99_ms']} / {rp['median_p99_ms']} |\n")
