#!/usr/bin/env bash
# Runs testdata/e2e/action-workflow.yml with nektos/act in host mode (there is
# no Docker engine here) and asserts the action's outputs and that the API key
# never reaches the log. Installs act v0.2.89 into a cache folder first.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${LATGATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latgate}"
act="$cache/bin/act"
if [ ! -x "$act" ]; then
  echo "installing act v0.2.89 into $cache/bin"
  GOBIN="$cache/bin" GOFLAGS=-mod=mod go install github.com/nektos/act@v0.2.89
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# act needs a git repository with a commit; give it a clean copy of the tree.
git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$work" 2>/dev/null || true
cd "$work"
git init -q && git add -A && git -c user.name=e2e -c user.email=e2e@latgate.invalid commit -qm e2e
log="$work/act.log"
set +e
# No network: actions/checkout is replaced by a local stand-in that copies
# this tree into the workspace.
"$act" push -W testdata/e2e/action-workflow.yml -P ubuntu-latest=-self-hosted \
  --local-repository "actions/checkout@v4=$work/testdata/e2e/checkout" \
  --action-offline-mode --env E2E_SOURCE="$work" --env GOFLAGS=-mod=vendor --env PATH="$PATH" > "$log" 2>&1
code=$?
set -e
fail=0
grep -q "E2E-OUTPUTS-OK" "$log" || { echo "FAIL: the unchanged gate's outputs were not as expected"; fail=1; }
grep -q "E2E-GATE-FAILED-OK" "$log" || { echo "FAIL: the slower candidate did not fail the gate"; fail=1; }
grep -q "E2E-AB-OK" "$log" || { echo "FAIL: mode ab: the A/A run did not pass or the slower head did not fail"; fail=1; }
if grep -q "NEVER-PRINT-ME" "$log"; then echo "FAIL: the API key appears in the log"; grep -n "NEVER-PRINT-ME" "$log" | head -5; fail=1; fi
[ $code -eq 0 ] || { echo "FAIL: act exited $code"; fail=1; }
if [ $fail -ne 0 ]; then tail -80 "$log"; exit 1; fi
echo "e2e-action: 4 passed, 0 failed"
