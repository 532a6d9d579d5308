# Sourced by the end-to-end scripts that start servers and tests in
# process groups of their own (setsid): a temporary folder ($work), the
# groups started ($groups, each added by its leader's pid), and on every
# exit (a failure, Ctrl-C, SIGTERM) each whole group stopped, the last
# started first (the test, then the servers it talks to), and the folder
# removed: nothing outlives the script.
work=$(mktemp -d)
groups=()
# stop PGID: SIGTERM to the group (Ollama unloads its runners on it), up to
# 10 s for all of it to end, then SIGKILL to whatever of it is left.
stop() {
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 -- "-$1" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  local i
  for ((i = ${#groups[@]} - 1; i >= 0; i--)); do stop "${groups[i]}"; done
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
