#!/usr/bin/env bash
# End-to-end against a real inference engine: builds Ollama v0.17.4 from the
# Go module proxy (cached outside the tree), generates a tiny llama model,
# serves it on loopback with its own HOME and OLLAMA_MODELS, runs
# TestRealEngine (cmd/latgate) against /v1/chat/completions, and stops the
# server. The server logs at debug level, so the test reads how much of
# each prompt the runner took from its prefix cache (LATGATE_OLLAMA_LOG).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
cache="${LATGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latgate}/ollama"
bash scripts/e2e-real/build-ollama.sh "$cache"
ollama="$cache/bin/ollama"

work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
cleanup() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

go run ./internal/cmd/tinygguf -o "$work/tiny.gguf"
go run ./internal/cmd/tinygguf -o "$work/tiny-slow.gguf" -hidden 1024 -layers 8 -heads 16 -ffn 2816
for m in tiny tiny-slow; do
  cat > "$work/$m.Modelfile" <<MF
FROM $work/$m.gguf
TEMPLATE """{{ range .Messages }}{{ .Content }}{{ end }}"""
PARAMETER temperature 0.8
PARAMETER num_ctx 2048
PARAMETER num_thread 1
MF
done

# Ollama gets its own HOME and model store; go test keeps the real HOME
# (and so its build cache).
export OLLAMA_HOST="127.0.0.1:$port"
mkdir -p "$work/home"
ollama_vars=(HOME="$work/home" OLLAMA_MODELS="$work/models" OLLAMA_NOPRUNE=1 OLLAMA_MAX_LOADED_MODELS=2 OLLAMA_DEBUG=1)
ollama_env() { env "${ollama_vars[@]}" "$@"; }
# Started directly (not through the shell function, whose background
# subshell would be what $! names): killing $server stops Ollama itself,
# and Ollama stops its model runners.
env "${ollama_vars[@]}" "$ollama" serve > "$work/serve.log" 2>&1 &
server=$!
for i in $(seq 100); do
  curl -fs "http://$OLLAMA_HOST/api/version" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log"; exit 1; }
  sleep 0.2
done
ollama_env "$ollama" create tiny -f "$work/tiny.Modelfile" > /dev/null

export LATGATE_OLLAMA_URL="http://$OLLAMA_HOST/v1"
export LATGATE_OLLAMA_BIN="$ollama" LATGATE_OLLAMA_HOME="$work/home" LATGATE_OLLAMA_MODELS="$work/models"
export LATGATE_OLLAMA_SLOW_MODELFILE="$work/tiny-slow.Modelfile"
export LATGATE_OLLAMA_LOG="$work/serve.log"
set +e
(cd "$root" && GOFLAGS=-mod=vendor go test -count=1 -run '^TestRealEngine$' -v -timeout 30m ./cmd/latgate)
code=$?
set -e
[ $code -eq 0 ] || tail -40 "$work/serve.log"
exit $code
