#!/usr/bin/env bash
# End-to-end in a real browser against a real frontend: Debian's chromium
# (scripts/install-chromium.sh), a chat page on the AI SDK's useChat with
# marked and highlight.js (testdata/e2e/browser: package.json and its
# lockfile, installed with npm ci into a cache outside the tree) bundled
# twice with esbuild into a temporary folder (base: memoized Markdown
# blocks; head: the whole Markdown on every token), served by the AI SDK
# route of make e2e-aisdk (testdata/e2e/aisdk/server.mjs --static); runs
# TestE2EBrowser (package browser: the driver on both builds) and
# TestE2EBrowserAB (package gate: latgate ab of the two builds with api
# browser, a failing client budget), and stops the server. Nothing built
# lands in the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
sh scripts/install-chromium.sh
. scripts/aisdk-lib.sh
work=$(mktemp -d)
cleanup() { aisdk_stop; rm -rf "$work"; }
trap cleanup EXIT

src=testdata/e2e/browser
npm_cache "$src" frontend
cp "$src/app.jsx" "$src/build.mjs" "$src/index.html" "$cache/"
node "$cache/build.mjs" "$work/site"
aisdk_start "$work" --static "$work/site"

export LATGATE_E2E_BROWSER_URL="${url%/api/chat}"
# As root (CI's containers) Chromium's sandbox cannot run: the test's own
# pages run without it, allowed here.
if [ "$(id -u)" = 0 ]; then
	export LATGATE_BROWSER_NO_SANDBOX=1
fi
set +e
go test -tags browser -count=1 -p 1 -run '^TestE2EBrowser(AB)?$' -v -timeout 30m ./browser ./gate
code=$?
set -e
[ $code -eq 0 ] || tail -20 "$work/server.out"
exit $code
