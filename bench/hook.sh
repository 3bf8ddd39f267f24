#!/usr/bin/env bash
# hook.sh measures what mm's first command hook costs (issue 24): mm -p with
# an echo model, with and without one preGeneration hook running
# `cat </dev/null`, beside a bare `sh -c 'cat </dev/null'` — the floor of
# any command hook — and a Go program that runs the same command as a hook
# is run (os/exec: sh -c, its input on stdin, stdout and stderr read, a
# process group of its own), against the same program running nothing: the
# floor of any Go program's hook, on the machine of the day; and the same
# program keeping mm's guarantee as mm keeps it for a first hook (go+dog):
# mm's watchdog script (internal/proc/watchdog_unix.go) started beside the
# hook from a goroutine, killed and reaped at the end. With BASE, the same
# two runs of the mm of an earlier commit beside them.
#
# The runs are paired: ROUNDS short hyperfine blocks of RUNS runs each, the
# commands in a different order every round, so that a machine that gets
# busier or quieter moves every command alike. Each round gives the hook's
# cost (with hook − without) and its ratio to the bare sh; the medians over
# the rounds are printed, with the rounds' spread.
#
#   bench/hook.sh                          # from the repository's root
#   ROUNDS=60 BASE=<rev> bench/hook.sh
#
# mm is built as the README installs it (CGO_ENABLED=0). The same binary
# measures ±0.05× from one run to the next on a 2-core machine: compare
# against BASE in one run, and repeat it. The target is a hook that costs
# at most 1.5× the bare sh. Needs go and hyperfine (apt-get install
# hyperfine).
set -euo pipefail
rounds=${ROUNDS:-40}
runs=${RUNS:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "hook.sh: needs hyperfine: apt-get install hyperfine" >&2; exit 2; }

CGO_ENABLED=0 go build -o "$work/mm" "$root/cmd/mm"
printf 'model: echo/any\npersist: false\n' >"$work/plain.yaml"
printf 'model: echo/any\npersist: false\nhooks:\n  preGeneration:\n    - command: cat </dev/null\n' >"$work/hook.yaml"
mkdir "$work/floor"
# The watchdog's script, as mm runs it.
script=$(awk '/^const watchdogScript = `/ { on = 1; sub(/^[^`]*`/, ""); print; next } on && /^`$/ { exit } on' "$root/internal/proc/watchdog_unix.go")
[ -n "$script" ] || { echo "hook.sh: no watchdogScript in internal/proc/watchdog_unix.go" >&2; exit 2; }
{
	cat <<'GO'
package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
)

// With an argument, main runs it as mm runs a command hook; with a second,
// "dog", it keeps mm's guarantee beside it: the watchdog started from a
// goroutine, killed and reaped at the end. Without, nothing.
func main() {
	if len(os.Args) < 2 {
		return
	}
	var dog *exec.Cmd
	dogged := make(chan struct{})
	if len(os.Args) > 2 {
		r, w, err := os.Pipe()
		if err != nil {
			os.Exit(1)
		}
		defer w.Close()
		go func() {
			defer close(dogged)
			dog = exec.Command("/bin/sh", "-c", watchdogScript, "mm-watchdog")
			dog.Stdin, dog.Env = r, []string{}
			dog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if dog.Start() != nil {
				os.Exit(1)
			}
			r.Close()
		}()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", os.Args[1])
	cmd.Stdin = bytes.NewReader([]byte(`{"event":"preGeneration","cwd":"/","model":"echo/any","prompt":"hi"}` + "\n"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if cmd.Run() != nil {
		os.Exit(1)
	}
	if len(os.Args) > 2 {
		<-dogged
		dog.Process.Kill()
		dog.Wait()
	}
}

GO
	printf 'const watchdogScript = `%s\n`\n' "$script"
} >"$work/floor/main.go"
printf 'module floor\n\ngo 1.21\n' >"$work/floor/go.mod"
(cd "$work/floor" && CGO_ENABLED=0 go build -o "$work/go-floor" .)
names=("sh" "mm" "mm+hook" "go" "go+hook" "go+dog")
cmds=("sh -c 'cat </dev/null'" "$work/mm -p hi --config $work/plain.yaml" "$work/mm -p hi --config $work/hook.yaml"
	"$work/go-floor" "$work/go-floor 'cat </dev/null'" "$work/go-floor 'cat </dev/null' dog")
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base-src"
	git -C "$root" archive "$BASE" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && CGO_ENABLED=0 go build -o "$work/mm-base" ./cmd/mm)
	names+=("base" "base+hook")
	cmds+=("$work/mm-base -p hi --config $work/plain.yaml" "$work/mm-base -p hi --config $work/hook.yaml")
fi
cd "$work"
n=${#names[@]}
for ((r = 0; r < rounds; r++)); do
	args=()
	for ((i = 0; i < n; i++)); do
		j=$(((i + r) % n))
		args+=(-n "${names[j]}" "${cmds[j]}")
	done
	hyperfine -N -w 3 -r "$runs" --export-csv "$work/round-$r.csv" "${args[@]}" >/dev/null 2>&1
done
# Per round: each command's median; the hook's cost and ratio. Then the
# medians over the rounds, and the lowest and highest ratio.
awk -F, '
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return k % 2 ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2
	}
	FNR == 1 { round++; next }
	{ gsub(/"/, "", $1); med[$1, round] = $4 * 1000 }
	END {
		split("sh mm mm+hook go go+hook go+dog base base+hook", order, " ")
		for (o = 1; o <= 8; o++) {
			name = order[o]
			if (!((name, 1) in med)) continue
			for (r = 1; r <= round; r++) v[r] = med[name, r]
			printf "%-10s median %6.2f ms\n", name, median(v, round)
		}
		split("mm:mm+hook go:go+hook go:go+dog base:base+hook", pairs, " ")
		for (o = 1; o <= 4; o++) {
			split(pairs[o], pair, ":"); plain = pair[1]; hooked = pair[2]
			if (!((hooked, 1) in med)) continue
			lo = 1e9; hi = 0
			for (r = 1; r <= round; r++) {
				c[r] = med[hooked, r] - med[plain, r]; x[r] = c[r] / med["sh", r]
				if (x[r] < lo) lo = x[r]; if (x[r] > hi) hi = x[r]
			}
			printf "the hook (%s): %.2f ms, %.2f× the bare sh (rounds %.2f–%.2f, %d rounds of %d runs)\n",
				hooked, median(c, round), median(x, round), lo, hi, round, '"$runs"'
		}
	}' $(for ((r = 0; r < rounds; r++)); do echo "$work/round-$r.csv"; done)
