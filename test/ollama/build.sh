#!/usr/bin/env bash
# Builds a real Ollama (the version pinned in go.mod) and the model generator
# into $OLLAMA_TEST_BIN (default: test/ollama/bin). mm's tests look there.
#
# Ollama's module zip leaves out llama.cpp's vendor/ folder, so the headers
# come from Debian (nlohmann-json3-dev, libstb-dev: apt-get install them) and
# miniaudio.h from github.com/gen2brain/malgo's module.
# The first build compiles llama.cpp and takes long on a small machine; the Go
# build cache makes later ones quick.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
out="${OLLAMA_TEST_BIN:-$here/bin}"
mkdir -p "$out/include/miniaudio"

for h in /usr/include/nlohmann/json.hpp /usr/include/stb/stb_image.h; do
  if [ ! -f "$h" ]; then
    echo "test/ollama/build.sh: $h is missing: apt-get install -y nlohmann-json3-dev libstb-dev" >&2
    exit 1
  fi
done

go mod download github.com/gen2brain/malgo
malgo="$(go list -m -f '{{.Dir}}' github.com/gen2brain/malgo)"
ln -sf "$malgo/miniaudio.h" "$out/include/miniaudio/miniaudio.h"

export CGO_ENABLED=1
export CGO_CPPFLAGS="-I$out/include ${CGO_CPPFLAGS:-}"
go build -trimpath -o "$out/ollama" github.com/ollama/ollama
go build -o "$out/ggufgen" ./ggufgen
echo "test/ollama/build.sh: built $out/ollama and $out/ggufgen"
