#!/usr/bin/env bash
# handoff.sh measures the speed figures of the hand-off (issue 4) and of
# mm -p (issue 2) side by side, in one run: every case runs RUNS times
# (default 25), interleaved with the others and in a rotating order, so
# that a noisy machine slows them all alike. It prints medians and p90s in
# milliseconds.
#
#   bench/handoff.sh            # from the repository's root
#   RUNS=50 bench/handoff.sh
#
# Needs bash 5 (EPOCHREALTIME), go and date.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/timing.sh"

runs=${RUNS:-25}
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/bench/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/mm" "$root/cmd/mm"
mm=$work/mm
cd "$work" # no agent.yaml here; hooks write their stamps here
unset MM_CONFIG MM_MODEL MM_ASKED_DEPTH MM_ASK_CHAIN MM_BIN
export XDG_STATE_HOME=$work/state # the sessions these runs save
export MM_BENCH_STAMP=$work/stamp

# 50 agents in mmConfigs: mm -p must not read or start any of them.
{
	echo "model: echo/main"
	echo "mmConfigs:"
	for i in $(seq 1 50); do
		echo "  agent$i: agent$i.yaml"
		printf 'model: echo/x\ndescription: agent %s\n' "$i" >"$work/agent$i.yaml"
	done
} >"$work/agents50.yaml"

now() { echo "${EPOCHREALTIME/./}"; } # microseconds


# firstpiece runs a command whose agent streams fifty pieces 20 ms apart and
# appends to the array named by $1 how long after the model emitted its
# first piece that piece reached the command's stdout (µs). The model
# emits it 20 ms after the preGeneration hook wrote its stamp; the time
# between the stamp and the model's start (the hook's exit, mm reading its
# reply) counts against mm, so the figure is an upper bound.
firstpiece() {
	local -n into=$1
	shift
	rm -f "$MM_BENCH_STAMP"
	local first
	first=$("$@" </dev/null 2>/dev/null | {
		IFS= read -r -n1 _
		echo "${EPOCHREALTIME/./}"
		cat >/dev/null
	})
	local stamp
	stamp=$(<"$MM_BENCH_STAMP")
	into+=($((first - stamp / 1000 - 20000)))
}


true_t=() print_t=() ask_t=() fan4_t=() fan1_t=() stream_ask=() stream_direct=()
cases=(c_true c_print c_print50 c_ask c_fan4 c_fan1 c_stream_ask c_stream_direct)
c_true() { timed true_t /bin/true; }
c_print() { timed print_t "$mm" --config "$fx/echo.yaml" -p "What is an inode?"; }
c_print50() { timed print50_t "$mm" --config "$work/agents50.yaml" -p "What is an inode?"; }
c_ask() { timed ask_t "$mm" --config "$fx/echo.yaml" --ask expert "What is an inode?"; }
c_fan4() { timed fan4_t "$mm" --config "$fx/fanout.yaml" -p go; }
c_fan1() { timed fan1_t "$mm" --config "$fx/fanout1.yaml" -p go; }
c_stream_ask() { firstpiece stream_ask "$mm" --config "$fx/stream.yaml" --ask streamer go; }
c_stream_direct() { firstpiece stream_direct "$mm" --config "$fx/streamer.yaml" -p go; }

# One warm-up round: the binary and the fixtures into the page cache.
for c in "${cases[@]}"; do "$c"; done
true_t=() print_t=() ask_t=() fan4_t=() fan1_t=() stream_ask=() stream_direct=()

n=${#cases[@]}
for ((i = 0; i < runs; i++)); do
	for ((j = 0; j < n; j++)); do
		"${cases[(i + j) % n]}"
	done
done

mtrue=$(median true_t) mprint=$(median print_t) mask=$(median ask_t)
awk_ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
awk_diff() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a-b}'; }

echo "mm hand-off benchmark: $runs runs of each case, interleaved; wall time in ms ($(nproc) CPUs, $(uname -sr))"
printf '%-52s %8s %8s\n' case median p90
printf '%-52s %8s %8s\n' "/bin/true" "$mtrue" "$(p90 true_t)"
printf '%-52s %8s %8s\n' "mm -p, echo model" "$mprint" "$(p90 print_t)"
printf '%-52s %8s %8s\n' "mm -p, echo model, 50 agents in mmConfigs" "$(median print50_t)" "$(p90 print50_t)"
printf '%-52s %8s %8s\n' "mm --ask expert, echo expert" "$mask" "$(p90 ask_t)"
printf '%-52s %8s %8s\n' "mm -p, 1 ask_agent call, agent takes 500 ms" "$(median fan1_t)" "$(p90 fan1_t)"
printf '%-52s %8s %8s\n' "mm -p, 4 ask_agent calls in one reply, 500 ms each" "$(median fan4_t)" "$(p90 fan4_t)"
printf '%-52s %8s %8s\n' "first piece, model to stdout: mm -p (no hand-off)" "$(median stream_direct)" "$(p90 stream_direct)"
printf '%-52s %8s %8s\n' "first piece, model to stdout: mm --ask (hand-off)" "$(median stream_ask)" "$(p90 stream_ask)"
echo
echo "mm -p over /bin/true:           $(awk_diff "$mprint" "$mtrue") ms   (target <= 15 ms for mm -p)"
echo "50 agents / 1 agent, mm -p:     $(awk_ratio "$(median print50_t)" "$mprint")      (target: no growth)"
echo "mm --ask / mm -p:               $(awk_ratio "$mask" "$mprint")      (target <= 2.0)"
echo "hand-off overhead (ask - p):    $(awk_diff "$mask" "$mprint") ms   (target <= 20 ms)"
echo "4 agents at once:               $(median fan4_t) ms (target < 1000 ms)"
echo "first piece through a hand-off: $(median stream_ask) ms after the model emitted it (target <= 10 ms; an upper bound)"
