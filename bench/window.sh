#!/usr/bin/env bash
# window.sh runs the 200-turn session of issue 10 against llamatest's fake
# llama.cpp server (a 4,096-token window, and an 8,192-token one beside
# it), COUNT times, and prints the medians side by side: the prompt tokens
# the server read anew per turn (what its prompt cache did not hold), all
# the prompt tokens per turn (what a server without a cache reads), the
# compressions, the largest request, the requests refused, the wall time.
#
#   bench/window.sh            # from the repository's root
#   COUNT=9 bench/window.sh
#
# Needs go and python3.
set -euo pipefail

count=${COUNT:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
go test ./internal/orchestrator -run '^$' -bench 'BenchmarkLongSession' -benchtime 1x -count "$count" |
	python3 -c '
import re, statistics, sys
runs = {}
for line in sys.stdin:
    m = re.match(r"BenchmarkLongSession/(\S+?)-\d+\s+\d+\s+(.*)", line)
    if not m:
        continue
    fields = m.group(2).split()
    vals = {fields[i + 1]: float(fields[i]) for i in range(0, len(fields) - 1, 2)}
    runs.setdefault(m.group(1), []).append(vals)
cols = ["reread-tokens/turn", "median-reread/turn", "prompt-tokens/turn", "compressions", "max-request-tokens", "refused", "ns/op"]
print("%-12s %s" % ("case", " ".join("%18s" % c for c in cols)))
for case, rs in runs.items():
    med = {c: statistics.median(r[c] for r in rs) for c in cols}
    med["ns/op"] /= 1e6
    print("%-12s %s" % (case, " ".join("%18.1f" % med[c] for c in cols)))
for case, rs in runs.items():
    re_ = statistics.median(r["reread-tokens/turn"] for r in rs)
    all_ = statistics.median(r["prompt-tokens/turn"] for r in rs)
    print("%s: the cache holds %.0f%% of the prompt tokens; a server without it reads %.1fx as many" % (case, 100 * (1 - re_ / all_), all_ / re_))
print("(ns/op column in milliseconds for the whole 200-turn session)")
'
