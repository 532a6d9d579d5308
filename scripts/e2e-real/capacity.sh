#!/usr/bin/env bash
# End-to-end capacity search against a real inference engine: Ollama
# v0.17.4 (built by build-ollama.sh, cached outside the tree) serving the
# generated tiny model twice on loopback, with OLLAMA_NUM_PARALLEL=1 and
# with 4 (one model store, each server its own port), and
# TestRealEngineCapacity (cmd/latgate): latgate ab of the two servers, base
# 4 slots and head 1, which must be a capacity regression. make e2e-real
# runs it after scripts/e2e-real.sh; about a minute with Ollama cached.
#
# Each server, and the test, runs in a session (process group) of its own;
# on every exit (a failure, Ctrl-C, SIGTERM) the script signals the whole
# group, so Ollama's model runners stop with their server and nothing
# outlives the script.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="${LATGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latgate}/ollama"
bash scripts/e2e-real/build-ollama.sh "$cache"
ollama="$cache/bin/ollama"

. scripts/groups-lib.sh # $work, $groups and their cleanup on every exit

go run ./internal/cmd/tinygguf -o "$work/tiny.gguf"
# One thread a runner: two runners of ggml's default thread pool (one
# thread a core) on the 2 shared cores spin-wait on each other's threads
# (measured at load average 6: an answer of 32 tokens in 115 ms, then in
# 4.7 s once the second server's runner had loaded; 86 ms with one thread).
cat > "$work/tiny.Modelfile" <<MF
FROM $work/tiny.gguf
TEMPLATE """{{ range .Messages }}{{ .Content }}{{ end }}"""
PARAMETER temperature 0.8
PARAMETER num_ctx 2048
PARAMETER num_thread 1
MF
mkdir -p "$work/home"
ollama_vars=(HOME="$work/home" OLLAMA_MODELS="$work/models" OLLAMA_NOPRUNE=1)

# serve PARALLEL: starts Ollama with OLLAMA_NUM_PARALLEL=PARALLEL in a
# session of its own (setsid, which a background job of a script runs
# without forking: the server is the group's leader), on a port the
# kernel picks (OLLAMA_HOST port 0), and sets addr to the address it
# logs ("Listening on 127.0.0.1:PORT (version ...)", server/routes.go of
# v0.17.4) once it answers there: never another process's server.
serve() {
  local log="$work/serve-$1.log" pid
  env "${ollama_vars[@]}" OLLAMA_NUM_PARALLEL="$1" OLLAMA_HOST="127.0.0.1:0" setsid "$ollama" serve > "$log" 2>&1 &
  pid=$!
  groups+=("$pid")
  addr=""
  for _ in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "ollama (OLLAMA_NUM_PARALLEL=$1) exited" >&2; exit 1; }
    [ -n "$addr" ] || addr=$(grep -o 'Listening on 127\.0\.0\.1:[0-9]*' "$log" | head -1 | cut -d' ' -f3 || true)
    [ -n "$addr" ] && curl -fs "http://$addr/api/version" >/dev/null && return
    sleep 0.2
  done
  cat "$log" >&2
  echo "ollama (OLLAMA_NUM_PARALLEL=$1) does not answer" >&2
  exit 1
}
serve 1; p1=$addr
serve 4; p4=$addr
env "${ollama_vars[@]}" OLLAMA_HOST="$p1" "$ollama" create tiny -f "$work/tiny.Modelfile" > /dev/null

export LATGATE_OLLAMA_P1_URL="http://$p1/v1" LATGATE_OLLAMA_P4_URL="http://$p4/v1"
echo "e2e-real capacity: OLLAMA_NUM_PARALLEL=1 at $p1, 4 at $p4; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# In the background, so that a signal is handled at once (bash runs a trap
# only after a foreground command ends) and stops the test's group too.
GOFLAGS=-mod=vendor setsid go test -count=1 -run '^(TestRealEngineCapacity|TestRealEngineCost|TestRealEngineTraceReplay)$' -v -timeout 10m ./cmd/latgate &
groups+=("$!")
code=0
wait "$!" || code=$?
[ $code -eq 0 ] || tail -n 20 "$work/serve-1.log" "$work/serve-4.log"
exit $code
