#!/usr/bin/env bash
# ollama.sh runs BenchmarkRealOllamaSession (cmd/mm/cli/bench_ollama_test.go)
# — a 20-turn session with a tool, a hand-off and a compression, on a real
# Ollama serving a 25M-parameter random model (ollamatest.Big) — three
# ways: mm as it was before issue 23 (BEFORE, a commit), mm as it is, and
# mm as it is on a server set up for several agents (two slots, the
# multi-user cache). It prints, per way, the prompt tokens read anew per
# request and in all, the share found in the cache, the requests Ollama
# cut, the runner's time, and the prefill's wall time (each request's wait
# for its first byte) and that time per token read anew.
#
#   test/ollama/build.sh && bench/ollama.sh        # from the repository's root
#   BEFORE=ac617b6 COUNT=3 bench/ollama.sh
#
# Needs go, git and a built test/ollama (test/ollama/build.sh, or MM_OLLAMA_BIN).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
before=${BEFORE:-ac617b6}
count=${COUNT:-1}
old=$(mktemp -d)
trap 'rm -rf "$old"' EXIT
git archive "$before" | tar -x -C "$old"
# Every program of that commit, side by side in bin/ as it installs them:
# an mm of before issue 24 looked for its second program beside itself.
(cd "$old" && mkdir bin && go build -o bin/ ./cmd/...)

run() { # name, then env for the benchmark
	local name=$1; shift
	env "$@" go test ./cmd/mm/cli -run '^$' -bench BenchmarkRealOllamaSession -benchtime 1x -count "$count" |
		sed -n "s/^BenchmarkRealOllamaSession-[0-9]*/$name/p"
}
run "before($before)" MM_BENCH_MM="$old/bin/mm"
run now
run now,2-slots,multi-user MM_BENCH_OLLAMA_ENV=OLLAMA_NUM_PARALLEL=2,OLLAMA_MULTIUSER_CACHE=1,OLLAMA_NEW_ENGINE=1
