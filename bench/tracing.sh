#!/usr/bin/env bash
# tracing.sh measures what tracing costs mm -p (issue 13), side by side in
# one run: the mm of BASE (default main: no tracing built in), this tree's
# mm with tracing built in but not configured, and this tree's mm tracing
# to a local OTLP/HTTP receiver (its spans sent at exit). Each case runs
# RUNS times (default 300), interleaved in a rotating order so that the
# machine's noise falls on all alike; medians and p90s in milliseconds, and
# the median of the paired differences (each round's off minus its base).
#
#   bench/tracing.sh                 # from the repository's root
#   BASE=009c7bd RUNS=500 bench/tracing.sh
#
# Needs bash 5 (EPOCHREALTIME), git and go.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/timing.sh"

runs=${RUNS:-300}
base=${BASE:-main}
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/bench/fixtures
work=$(mktemp -d)
mkdir "$work/base" "$work/sink"
git -C "$root" archive "$base" | tar -x -C "$work/base"
(cd "$work/base" && go build -o "$work/mm-base" ./cmd/mm)
go build -o "$work/mm" "$root/cmd/mm"
# The traced cases run a copy: each binary file then starts as often as the
# base's, and neither is the warmer for it.
cp "$work/mm" "$work/mm-traced"

# The receiver: answers every POST at once, as a collector on loopback does.
cat >"$work/sink/main.go" <<'GO'
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "{}")
	}))
}
GO
printf 'module sink\n\ngo 1.21\n' >"$work/sink/go.mod"
(cd "$work/sink" && go build -o "$work/sink-bin" .)
coproc SINK { exec "$work/sink-bin"; }
read -r addr <&"${SINK[0]}"
trap 'kill $SINK_PID 2>/dev/null; wait $SINK_PID 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
unset MM_CONFIG MM_MODEL MM_ASKED_DEPTH MM_ASK_CHAIN MM_BIN TRACEPARENT TRACESTATE
for v in $(env | sed -n 's/^\(OTEL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done


q="What is an inode?"
c_base() { timed base_t "$work/mm-base" --config "$fx/echo.yaml" -p "$q"; }
c_off() { timed off_t "$work/mm" --config "$fx/echo.yaml" -p "$q"; }
c_on() { timed on_t env OTEL_EXPORTER_OTLP_ENDPOINT="http://$addr" "$work/mm-traced" --config "$fx/echo.yaml" -p "$q"; }
c_env() { timed env_t env "$work/mm-traced" --config "$fx/echo.yaml" -p "$q"; }
cases=(c_base c_off c_on c_env)
base_t=() off_t=() on_t=() env_t=()
for c in "${cases[@]}"; do "$c"; done # warm the page cache
base_t=() off_t=() on_t=() env_t=()
n=${#cases[@]}
for ((i = 0; i < runs; i++)); do
	for ((j = 0; j < n; j++)); do
		"${cases[(i + j) % n]}"
	done
done
diffs=()
for ((i = 0; i < runs; i++)); do diffs+=($((off_t[i] - base_t[i]))); done
dmed=$(printf '%s\n' "${diffs[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m/1000}')

echo "mm tracing benchmark: $runs runs of each case, interleaved; wall time in ms ($(nproc) CPUs, $(uname -sr))"
printf '%-60s %8s %8s\n' case median p90
printf '%-60s %8s %8s\n' "mm -p, echo model: $base's mm (no tracing built in)" "$(median base_t)" "$(p90 base_t)"
printf '%-60s %8s %8s\n' "mm -p, echo model: tracing built in, not configured" "$(median off_t)" "$(p90 off_t)"
printf '%-60s %8s %8s\n' "mm -p, echo model: traced to a local OTLP/HTTP receiver" "$(median on_t)" "$(p90 on_t)"
printf '%-60s %8s %8s\n' "  (the same through env, for the cost of env itself)" "$(median env_t)" "$(p90 env_t)"
echo
echo "built in, not configured - $base: median of the paired differences $dmed ms   (target within ±0.5 ms)"
echo "traced - not configured (both through env): $(awk -v a="$(median on_t)" -v b="$(median env_t)" 'BEGIN {printf "%.2f", a-b}') ms"
