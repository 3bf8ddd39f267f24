#!/usr/bin/env bash
# hook.sh measures what mm's first command hook costs (issue 24): mm -p with
# an echo model, with and without one preGeneration hook running
# `cat </dev/null`, beside a bare `sh -c 'cat </dev/null'` — the floor of
# any command hook — in one hyperfine run. With BASE, the same two runs of
# the mm of an earlier commit beside them.
#
#   bench/hook.sh               # from the repository's root
#   RUNS=300 BASE=<rev> bench/hook.sh
#
# The hook's cost is (with hook − without); the target is at most 1.5× the
# bare sh. Needs go and hyperfine (apt-get install hyperfine).
set -euo pipefail
runs=${RUNS:-200}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "hook.sh: needs hyperfine: apt-get install hyperfine" >&2; exit 2; }

go build -o "$work/mm" "$root/cmd/mm"
printf 'model: echo/any\npersist: false\n' >"$work/plain.yaml"
printf 'model: echo/any\npersist: false\nhooks:\n  preGeneration:\n    - command: cat </dev/null\n' >"$work/hook.yaml"
base=()
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base-src"
	git -C "$root" archive "$BASE" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && go build -o "$work/mm-base" ./cmd/mm)
	base=(-n "mm -p ($BASE)" "$work/mm-base -p hi --config $work/plain.yaml"
		-n "mm -p with a hook ($BASE)" "$work/mm-base -p hi --config $work/hook.yaml")
fi
cd "$work"
hyperfine -N -w 10 -r "$runs" --export-csv "$work/out.csv" \
	-n "sh -c 'cat </dev/null'" "sh -c 'cat </dev/null'" \
	-n "mm -p" "$work/mm -p hi --config $work/plain.yaml" \
	-n "mm -p with a hook" "$work/mm -p hi --config $work/hook.yaml" \
	"${base[@]}" >/dev/null
# Medians, in ms, and the hook's cost against the bare sh.
awk -F, 'NR > 1 { gsub(/"/, "", $1); med[NR] = $4 * 1000; name[NR] = $1 }
	END {
		for (i = 2; i <= NR; i++) printf "%-32s median %6.2f ms\n", name[i], med[i]
		printf "the hook: %.2f ms, %.2f× the bare sh\n", med[4] - med[3], (med[4] - med[3]) / med[2]
		if (NR >= 6) printf "the hook, base: %.2f ms, %.2f× the bare sh\n", med[6] - med[5], (med[6] - med[5]) / med[2]
	}' "$work/out.csv"
