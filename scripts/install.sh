#!/usr/bin/env bash
# Puts a latgate binary on the runner and sets the step output "bin".
#
# 1. A release (the action's ref when it looks like vX.Y.Z; a full commit SHA
#    whose checkout holds the RELEASE file that make release writes into the
#    release commit — pinning to a SHA is GitHub's hardening advice; or the
#    version input): download the binary for this OS/arch and SHA256SUMS from
#    the action's GitHub release, verify the checksum, cache it in the tool
#    cache.
# 2. Otherwise (uses: ./, a branch or a commit, or version: source): build
#    from the action's own checkout with the runner's Go. Dependencies are
#    vendored, so this works offline.
set -euo pipefail

case "${RUNNER_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS|Darwin) os=darwin ;;
  Windows|MINGW*|MSYS*) os=windows ;;
  *) echo "::error::latgate: unsupported runner OS ${RUNNER_OS:-unknown}"; exit 1 ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64|x86_64|amd64) arch=amd64 ;;
  ARM64|arm64|aarch64) arch=arm64 ;;
  *) echo "::error::latgate: unsupported runner architecture ${RUNNER_ARCH:-unknown}"; exit 1 ;;
esac
ext=""; [ "$os" = windows ] && ext=".exe"

action_path="${LATGATE_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
version="${LATGATE_VERSION:-}"
if [ -z "$version" ]; then
  ref="${LATGATE_ACTION_REF:-}"
  if [[ "$ref" =~ ^v[0-9]+(\.[0-9]+){0,2}$ ]]; then
    version="$ref"
  elif [[ "$ref" =~ ^[0-9a-f]{40}$ ]] && [ -f "$action_path/RELEASE" ] &&
       [[ "$(cat "$action_path/RELEASE")" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    version=$(cat "$action_path/RELEASE") # a release commit pinned by its SHA
  else
    version=source
  fi
fi

# Sets the step output and puts latgate on PATH for later steps (latgate merge).
out() {
  local bin="$1" dir
  dir=$(dirname "$bin")
  if command -v cygpath >/dev/null; then # Windows runners: the runner wants Windows paths
    bin=$(cygpath -w "$bin"); dir=$(cygpath -w "$dir")
  fi
  echo "bin=$bin" >> "${GITHUB_OUTPUT:-/dev/stdout}"
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >> "$GITHUB_PATH"; fi
  echo "latgate: using $bin"
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

if [ "$version" != source ]; then
  repo="${LATGATE_ACTION_REPOSITORY:-latgate/latgate}"
  cache="${RUNNER_TOOL_CACHE:-${TMPDIR:-/tmp}}/latgate/$version/${os}_${arch}"
  bin="$cache/latgate$ext"
  if [ -x "$bin" ]; then out "$bin"; exit 0; fi
  mkdir -p "$cache"
  asset="latgate_${os}_${arch}${ext}"
  base="${GH_SERVER:-https://github.com}/$repo/releases/download/$version"
  if curl -fsSL --retry 3 --max-time 120 -o "$cache/$asset" "$base/$asset" &&
     curl -fsSL --retry 3 --max-time 60 -o "$cache/SHA256SUMS" "$base/SHA256SUMS"; then
    want=$(grep " $asset\$" "$cache/SHA256SUMS" | cut -d' ' -f1)
    got=$(sha256 "$cache/$asset")
    if [ -z "$want" ] || [ "$want" != "$got" ]; then
      rm -f "$cache/$asset"
      echo "::error::latgate: checksum mismatch for $asset of $version (want ${want:-none}, got $got)"
      exit 1
    fi
    mv "$cache/$asset" "$bin"; chmod +x "$bin"
    out "$bin"; exit 0
  fi
  echo "::warning::latgate: no release binary for $version ($os/$arch); building from source"
fi

if ! command -v go >/dev/null; then
  echo "::error::latgate: building from source needs Go on the runner (add actions/setup-go before this step) or a released version"
  exit 1
fi
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/latgate-build"
mkdir -p "$dir"
( cd "$action_path" && CGO_ENABLED=0 GOFLAGS=-mod=vendor go build -trimpath -o "$dir/latgate$ext" ./cmd/latgate )
out "$dir/latgate$ext"
