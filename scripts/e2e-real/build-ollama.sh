#!/usr/bin/env bash
# Builds Ollama v0.17.4 (cgo, CPU backend) from the Go module proxy into
# $CACHE/bin, outside the source tree. Go module zips drop vendor/ folders,
# so the headers llama.cpp expects come from Debian's packages (extracted,
# not installed) and a stand-in miniaudio.h. A cold build takes minutes.
set -euo pipefail
cache="$1"
here="$(cd "$(dirname "$0")" && pwd)"
bin="$cache/bin/ollama"
if [ -x "$bin" ]; then echo "ollama: cached at $bin"; exit 0; fi
hdr="$cache/headers"
if [ ! -f "$hdr/usr/include/nlohmann/json_fwd.hpp" ] || [ ! -f "$hdr/usr/include/stb/stb_image.h" ]; then
  mkdir -p "$cache/debs" "$hdr"
  ( cd "$cache/debs"
    apt-get download nlohmann-json3-dev libstb-dev >/dev/null 2>&1 || { apt-get update -qq && apt-get download nlohmann-json3-dev libstb-dev; }
    for f in *.deb; do dpkg -x "$f" "$hdr"; done )
fi
mkdir -p "$hdr/stand-in/miniaudio"
cp "$here/miniaudio.h" "$hdr/stand-in/miniaudio/miniaudio.h"
flags="-O2"
grep -qw avx2 /proc/cpuinfo && flags="-O2 -march=x86-64-v3"
echo "ollama: building v0.17.4 with '$flags' (a cold build takes a few minutes)"
CGO_ENABLED=1 \
CGO_CPPFLAGS="-I$hdr/usr/include -I$hdr/stand-in" \
CGO_CFLAGS="$flags" CGO_CXXFLAGS="$flags" \
GOBIN="$cache/bin" GOFLAGS=-mod=mod \
  go install github.com/ollama/ollama@v0.17.4
echo "ollama: built $bin"
