#!/bin/sh
# follow-up.sh QUESTION FOLLOW-UP: asks a question, then a follow-up in the
# same session, reading the answer and the session's id from the JSON output
# as a script written for `claude -p --output-format json` does.
set -eu
first=$(mm -p --output-format json "$1")
printf '%s\n' "$first" | jq -r .result
id=$(printf '%s\n' "$first" | jq -r .session_id)
mm -p --resume "$id" --output-format json "$2" | jq -r .result
