#!/usr/bin/env bash
# Puts a latgate binary on the runner and sets the step output "bin".
#
# The binary is pinned by the action's own tree. A release commit holds
# RELEASE (its version, e.g. v1.4.2) and RELEASE.sha256 (the SHA-256 of each
# of its binaries), both written by `make release`; the release tag
# (v1.4.2), the moving major tag (v1, moved to the newest v1.x release
# commit) and the commit's full SHA all point at it, so `uses:
# latgate/latgate@<any of them>` checks out the checksums with the action.
#
# 1. A release ref (a vN, vN.N or vN.N.N tag, or a full commit SHA) whose
#    tree holds RELEASE and RELEASE.sha256: use that release's binary for
#    this OS/arch, verified against RELEASE.sha256 on every use. The tool
#    cache (shared by every job on a self-hosted runner) only saves the
#    download: a cached binary is copied into this job's own folder and
#    checked there; one that does not match is not used, but removed and
#    downloaded again. A download that does not match fails the step.
#    Nothing published with the release (its SHA256SUMS) is trusted.
# 2. Otherwise (uses: ./, a branch, a commit that is not a release, or
#    version: source): build from the action's own checkout with the
#    runner's Go. Dependencies are vendored, so this works offline.
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
asset="latgate_${os}_${arch}${ext}"

action_path="${LATGATE_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
sums="$action_path/RELEASE.sha256"
release=""
if [ -f "$action_path/RELEASE" ]; then
  release=$(tr -d ' \r\n' < "$action_path/RELEASE")
  [[ "$release" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || release=""
fi
ref="${LATGATE_ACTION_REF:-}"
version="${LATGATE_VERSION:-}"
if [ -n "$version" ] && [ "$version" != source ] && [ "$version" != "$release" ]; then
  echo "::error::latgate: version $version is not the release of this action's ref (${release:-none}): only a release whose checksums the action's own tree holds is used. Pin the action to it instead (uses: ${LATGATE_ACTION_REPOSITORY:-latgate/latgate}@$version), or set version: source"
  exit 1
fi
if [ -z "$version" ]; then
  if [ -n "$release" ] && [[ "$ref" =~ ^(v[0-9]+(\.[0-9]+){0,2}|[0-9a-f]{40})$ ]]; then
    version="$release"
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

want=""
if [ "$version" != source ]; then
  if [ -f "$sums" ]; then
    want=$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1; exit }' "$sums")
  fi
  if ! [[ "$want" =~ ^[0-9a-f]{64}$ ]]; then
    echo "::warning::latgate: the action's tree holds no checksum for $asset of $version (RELEASE.sha256): building from source"
    version=source
  fi
fi

if [ "$version" != source ]; then
  cache="${RUNNER_TOOL_CACHE:-${TMPDIR:-/tmp}}/latgate/$version/${os}_${arch}"
  # This job's own folder: what is verified is what runs.
  own=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/latgate-bin.XXXXXX")
  bin="$own/latgate$ext"
  if [ -f "$cache/latgate$ext" ] && cp "$cache/latgate$ext" "$bin" 2>/dev/null; then
    if [ "$(sha256 "$bin")" = "$want" ]; then
      chmod +x "$bin"; out "$bin"; exit 0
    fi
    rm -f "$bin"
    echo "::warning::latgate: the cached $cache/latgate$ext does not match the checksum of $asset of $version in the action (RELEASE.sha256): not used, removed, downloaded again"
    rm -f "$cache/latgate$ext" || true
  fi
  url="${GH_SERVER:-https://github.com}/${LATGATE_ACTION_REPOSITORY:-latgate/latgate}/releases/download/$version/$asset"
  if curl -fsSL --retry 3 --max-time 120 -o "$bin" "$url"; then
    got=$(sha256 "$bin")
    if [ "$got" != "$want" ]; then
      rm -f "$bin"
      echo "::error::latgate: checksum mismatch for $asset of $version downloaded from $url: want $want (RELEASE.sha256 in the action), got $got. Not used"
      exit 1
    fi
    chmod +x "$bin"
    # Save the download for later jobs; it is checked again on every use.
    if mkdir -p "$cache" 2>/dev/null && cp "$bin" "$cache/latgate$ext.$$" 2>/dev/null; then
      mv -f "$cache/latgate$ext.$$" "$cache/latgate$ext" || rm -f "$cache/latgate$ext.$$"
    fi
    out "$bin"; exit 0
  fi
  rm -f "$bin"
  echo "::warning::latgate: could not download $asset of $version from $url; building from source"
fi

if ! command -v go >/dev/null; then
  echo "::error::latgate: building from source needs Go on the runner (add actions/setup-go before this step) or a release of the action (a release tag such as v1, or a release commit's SHA)"
  exit 1
fi
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/latgate-build"
mkdir -p "$dir"
echo "latgate: building from source ($action_path)"
( cd "$action_path" && CGO_ENABLED=0 GOFLAGS=-mod=vendor go build -trimpath -o "$dir/latgate$ext" ./cmd/latgate )
out "$dir/latgate$ext"
