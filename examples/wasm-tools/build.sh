#!/bin/sh
# Builds the example tool as a WebAssembly module next to this script:
# wordcount.wasm. Needs Go 1.21 or later.
set -eu
cd "$(dirname "$0")"
GOOS=wasip1 GOARCH=wasm go build -trimpath -o wordcount.wasm ./wordcount
echo "built wordcount.wasm"
