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
. scripts/aisdk-lib.sh
work=$(mktemp -d)
cleanup() { aisdk_stop; rm -rf "$work"; }
trap cleanup EXIT
aisdk_start "$work"

export LATGATE_AISDK_URL="$url" LATGATE_AISDK_STAMPS="$work/stamps.jsonl"
set +e
go test -count=1 -run '^TestAISDK$' -v -timeout 15m ./cmd/latgate
code=$?
set -e
[ $code -eq 0 ] || tail -20 "$work/server.out"
exit $code
