#!/usr/bin/env bash
# a2a.sh measures what an A2A hand-off adds (issue 13), side by side in one
# run: mm -p with the echo model (no hand-off), mm --ask to an echo agent
# started as a child (ACP), and mm --ask to an echo agent that mm serve
# --a2a serves on loopback (its card read afresh by each mm, as a new
# session does). Each case runs RUNS times (default 25), interleaved in a
# rotating order; medians and p90s in milliseconds.
#
#   bench/a2a.sh            # from the repository's root
#
# Needs bash 5 (EPOCHREALTIME) and go.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/timing.sh"

runs=${RUNS:-25}
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/bench/fixtures
work=$(mktemp -d)
go build -o "$work/mm" "$root/cmd/mm"
mm=$work/mm
cd "$work"
unset MM_CONFIG MM_MODEL MM_ASKED_DEPTH MM_ASK_CHAIN MM_BIN

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'model: echo/served\n' >served.yaml
printf 'model: echo/main\nmmConfigs:\n  served: {a2a: "http://127.0.0.1:%s/"}\n' "$port" >asker.yaml
"$mm" serve --a2a "127.0.0.1:$port" --no-token --config served.yaml 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done


print_t=() child_t=() a2a_t=()
cases=(c_print c_child c_a2a)
c_print() { timed print_t "$mm" --config "$fx/echo.yaml" -p "What is an inode?"; }
c_child() { timed child_t "$mm" --config "$fx/echo.yaml" --ask expert "What is an inode?"; }
c_a2a() { timed a2a_t "$mm" --config asker.yaml --ask served "What is an inode?"; }
for c in "${cases[@]}"; do "$c"; done
print_t=() child_t=() a2a_t=()
n=${#cases[@]}
for ((i = 0; i < runs; i++)); do
	for ((j = 0; j < n; j++)); do
		"${cases[(i + j) % n]}"
	done
done

mp=$(median print_t) mc=$(median child_t) ma=$(median a2a_t)
echo "mm A2A benchmark: $runs runs of each case, interleaved; wall time in ms ($(nproc) CPUs, $(uname -sr))"
printf '%-52s %8s %8s\n' case median p90
printf '%-52s %8s %8s\n' "mm -p, echo model (no hand-off)" "$mp" "$(p90 print_t)"
printf '%-52s %8s %8s\n' "mm --ask, echo agent as a child (ACP)" "$mc" "$(p90 child_t)"
printf '%-52s %8s %8s\n' "mm --ask, echo agent over A2A (mm serve, loopback)" "$ma" "$(p90 a2a_t)"
echo
echo "A2A hand-off over mm -p:  $(awk -v a="$ma" -v b="$mp" 'BEGIN {printf "%.1f", a-b}') ms   (target <= 15 ms)"
