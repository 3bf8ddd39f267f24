#!/usr/bin/env bash
# sessions.sh measures what saving sessions costs (issue 10), side by side
# in one hyperfine run: mm -p saving its session and with --no-save, and
# mm --continue -p resuming a session of 10,000 messages (about 5 MB)
# beside mm -p starting a new one. It prints medians in milliseconds.
#
#   bench/sessions.sh           # from the repository's root
#   RUNS=100 bench/sessions.sh
#
# The per-message figures are Go benchmarks:
#   go test ./internal/sessions -run '^$' -bench . -count 10
#
# Needs go, hyperfine (apt-get install hyperfine) and python3.
set -euo pipefail

runs=${RUNS:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "sessions.sh: needs hyperfine: apt-get install hyperfine" >&2; exit 2; }

go build -o "$work/mm" "$root/cmd/mm"
unset MM_CONFIG MM_MODEL MM_ASKED_DEPTH MM_ASK_CHAIN MM_ASK_MAX_DEPTH MM_BIN
mm=$work/mm

# Two folders, each with its own sessions: "new" for the runs that start
# one, "long" for the session of 10,000 messages that --continue resumes
# (every run adds its question and answer to it).
export XDG_STATE_HOME=$work/state
mkdir "$work/new" "$work/long"
printf 'model: echo/main\n' >"$work/new/agent.yaml"
printf 'model: echo/main\n' >"$work/long/agent.yaml"
python3 - "$work/long" <<'PY'
import json, os, sys, time
cwd = sys.argv[1]
ms = int(time.time() * 1000) - 86400000
alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
t = ""
for _ in range(9):
    t = alphabet[ms % 32] + t
    ms //= 32
sid = t + "aaa"
d = os.path.join(os.environ["XDG_STATE_HOME"], "mm", "sessions")
os.makedirs(d, mode=0o700, exist_ok=True)
out = "drwxr-xr-x 2 user user 4096 Nov 30 09:00 a-file-name.go\n" * 20
with open(os.path.join(d, sid + ".jsonl"), "w") as f:
    os.chmod(f.name, 0o600)
    f.write(json.dumps({"t": "session", "v": 1, "id": sid, "cwd": cwd, "config": cwd + "/agent.yaml", "model": "echo/main", "created": "2026-11-30T09:00:00Z"}, separators=(",", ":")) + "\n")
    for i in range(2500):
        c = "call_%d" % i
        for m in [
            {"role": "user", "content": "question %d: list the files of the folder and say which one holds \"main\"" % i},
            {"role": "assistant", "content": "Let me look.", "toolCalls": [{"id": c, "name": "bash", "arguments": "{\"command\":\"ls -la ./cmd/mm\"}"}]},
            {"role": "tool", "content": out, "toolCallId": c, "name": "bash"},
            {"role": "assistant", "content": "The file main.go holds func main; the others are its commands and their tests."},
        ]:
            f.write(json.dumps(dict(t="message", **m), separators=(",", ":")) + "\n")
PY

hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/runs.json" \
	-n 'mm -p (saved)' "$mm --config $work/new/agent.yaml -p hi" \
	-n 'mm -p --no-save' "$mm --config $work/new/agent.yaml --no-save -p hi" \
	-n 'mm --continue -p (10,000 messages)' "sh -c 'cd $work/long && exec $mm --continue -p hi'" \
	-n 'mm -p (saved), through sh' "sh -c 'cd $work/long && exec $mm -p hi'" </dev/null >/dev/null
python3 - "$work/runs.json" <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
print("| case | median ms | min | max |")
print("|---|---:|---:|---:|")
for r in rs:
    print("| %s | %.2f | %.2f | %.2f |" % (r["command"], r["median"]*1e3, r["min"]*1e3, r["max"]*1e3))
m = {r["command"]: r["median"] for r in rs}
print("\nsaving, mm -p: %+.2f ms over --no-save (target: nothing measurable)" % ((m["mm -p (saved)"] - m["mm -p --no-save"])*1e3))
print("resuming 10,000 messages: %+.2f ms over a new session (target <= 100 ms)" % ((m["mm --continue -p (10,000 messages)"] - m["mm -p (saved), through sh"])*1e3))
PY
