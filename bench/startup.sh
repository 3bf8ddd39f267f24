#!/usr/bin/env bash
# startup.sh measures mm's start-up against the floor, side by side in one
# hyperfine run (issue 16): an empty Go program, mm version, mm -p and
# mm --ask with echo models, mm as built by default and linked statically.
# With BASE, the mm of an earlier commit beside them (and any other program
# that commit's cmd/ holds, as "base <name>"). Then the package
# initialisers of one start of each, from GODEBUG=inittrace=1: their total
# time, bytes and allocations, and the ten costliest.
#
#   bench/startup.sh            # from the repository's root
#   RUNS=100 bench/startup.sh
#   ROUNDS=5 bench/startup.sh   # hyperfine rounds, pooled (default 3)
#   BASE=<rev> bench/startup.sh # also the mm of an earlier commit
#
# Needs go and hyperfine (apt-get install hyperfine).
set -euo pipefail

runs=${RUNS:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "startup.sh: needs hyperfine: apt-get install hyperfine" >&2; exit 2; }

go build -o "$work/mm" "$root/cmd/mm"
# The same mm linked statically: mm uses no C, and without cgo (which only
# net's resolver would use) there is no dynamic loader to run at start.
mkdir "$work/static"
CGO_ENABLED=0 go build -o "$work/static/mm" "$root/cmd/mm"
base=()
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base-src"
	git -C "$root" archive "$BASE" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && go build -o "$work/mm-base" ./cmd/mm && mkdir "$work/base-static" &&
		CGO_ENABLED=0 go build -o "$work/base-static/mm" ./cmd/mm)
	base=(-n "mm -p (echo), $BASE" "$work/mm-base -p hi" -n "mm --ask (echo), $BASE" "$work/mm-base --ask e hi"
		-n "mm -p (echo), static, $BASE" "$work/base-static/mm -p hi" -n "mm --ask (echo), static, $BASE" "$work/base-static/mm --ask e hi")
	for prog in "$work"/base-src/cmd/*/; do
		name=$(basename "$prog")
		[ "$name" = mm ] && continue
		(cd "$work/base-src" && CGO_ENABLED=0 go build -o "$work/base-static/$name" "./cmd/$name")
		base+=(-n "base $name -p (echo), static, $BASE" "$work/base-static/$name -p hi")
	done
fi
mkdir "$work/floor"
printf 'package main\n\nfunc main() {}\n' >"$work/floor/main.go"
printf 'module floor\n\ngo 1.21\n' >"$work/floor/go.mod"
(cd "$work/floor" && go build -o "$work/floor-bin" .)

cd "$work"
printf 'model: echo/main\nmmConfigs:\n  e: e.yaml\n' >agent.yaml
printf 'model: echo/e\n' >e.yaml
unset MM_CONFIG MM_MODEL MM_ASKED_DEPTH MM_ASK_CHAIN MM_ASK_MAX_DEPTH MM_BIN
export XDG_STATE_HOME=$work/state # the sessions these runs save

# hyperfine runs each command's runs one after the other: several rounds,
# pooled, keep a load that changes meanwhile from favouring one command.
for ((r = 1; r <= ${ROUNDS:-3}; r++)); do
	hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/runs-$r.json" \
		-n floor "$work/floor-bin" \
		-n 'mm version' "$work/mm version" \
		-n 'mm -p (echo)' "$work/mm -p hi" \
		-n 'mm -p (echo), static' "$work/static/mm -p hi" \
		-n 'mm --ask (echo)' "$work/mm --ask e hi" \
		-n 'mm --ask (echo), static' "$work/static/mm --ask e hi" \
		"${base[@]}" </dev/null >/dev/null
done
# Medians (one slow or lucky run moves a mean), with the spread.
python3 - "$work"/runs-*.json <<'PY'
import json, statistics, sys
times, order = {}, []
for f in sys.argv[1:]:
    for r in json.load(open(f))["results"]:
        if r["command"] not in times:
            order.append(r["command"])
        times.setdefault(r["command"], []).extend(r["times"])
rs = [{"command": c, "median": statistics.median(times[c]), "min": min(times[c]), "max": max(times[c])} for c in order]
floor = rs[0]["median"]
print("| case | median ms | min | max | × floor |")
print("|---|---:|---:|---:|---:|")
for r in rs:
    print("| %s | %.2f | %.2f | %.2f | %.2f |" % (r["command"], r["median"]*1e3, r["min"]*1e3, r["max"]*1e3, r["median"]/floor))
m = {r["command"]: r["median"] for r in rs}
print("\nmm -p / floor: %.2f (target <= 2); linked statically: %.2f" % (m["mm -p (echo)"] / floor, m["mm -p (echo), static"] / floor))
for sfx in ("", ", static"):
    own = m["mm -p (echo)" + sfx] - floor
    hand = m["mm --ask (echo)" + sfx] - m["mm -p (echo)" + sfx]
    print("hand-off%s (mm --ask - mm -p) %.2f ms / one run's own work (mm -p - floor) %.2f ms: %.2f (target <= 1.2)" % (sfx, hand*1e3, own*1e3, hand/own))
PY

for bin in mm; do
	echo
	echo "package initialisers of one start ($bin version), GODEBUG=inittrace=1:"
	GODEBUG=inittrace=1 "$work/$bin" version 2>&1 >/dev/null | awk '
		$1 == "init" { ms[$2] = $5; by[$2] = $8; al[$2] = $10; t += $5; b += $8; a += $10; n++ }
		END {
			printf "  %d packages, %.2f ms, %d bytes, %d allocs\n", n, t, b, a
			for (p in ms) printf "%s %s %s %s\n", ms[p], p, by[p], al[p] | "sort -rn | head -10 | awk \x27{printf \"  %6.3f ms %8d B %5d allocs  %s\\n\", $1, $3, $4, $2}\x27"
		}'
done
