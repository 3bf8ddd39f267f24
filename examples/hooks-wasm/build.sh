#!/bin/sh
# Builds the example hooks as WebAssembly modules next to this script:
# bash_guard.wasm and audit.wasm. Needs Go 1.21 or later.
set -eu
cd "$(dirname "$0")"
for hook in bash_guard audit; do
	GOOS=wasip1 GOARCH=wasm go build -trimpath -o "$hook.wasm" "./$hook"
	echo "built $hook.wasm"
done
