# latgate — see README.md. Every target installs what it needs itself.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS  := -s -w -X github.com/latgate/latgate/internal/version.version=$(VERSION) -X github.com/latgate/latgate/internal/version.commit=$(COMMIT)
# A count, not a duration: a duration -fuzztime races Go's fuzz coordinator
# at its deadline ("context deadline exceeded" with no crasher, golang/go#75804,
# fixed in Go 1.27).
FUZZTIME ?= 100000x
# staticcheck, pinned; run from the module proxy (make lint).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The browser tests' allowance to run Chromium without its sandbox, which
# cannot run as root: set as root only (docs/config.md, api browser).
NO_SANDBOX := $(if $(filter 0,$(shell id -u)),LATGATE_BROWSER_NO_SANDBOX=1)

.PHONY: all build test unit shells lint treecheck fuzz soak demo bench bench-compare bench-realtime calibrate release clean fmt e2e-action e2e-real e2e-gateway e2e-aisdk e2e-browser browser-test screenshots lexicon-check

all: build test

build:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o bin/latgate ./cmd/latgate

fmt:
	gofmt -w $$($(GO) list -f '{{.Dir}}' ./...)

# The test command CI runs (.ci/run): the completion scripts in their
# shells, format check, vet, staticcheck, the tree's size check, race
# tests, short fuzzing. The race run's -timeout is a hang guard, not a
# measurement: at a load average of 25 on 2 cores (beside a CPU hog) the
# packages compare and cmd/latgate take more than go test's default 10
# minutes under -race; on an idle machine the whole run takes a few.
test: shells unit fuzz

unit: lint treecheck
	$(GO) test -race -count=1 -timeout 45m ./...

# The completion scripts of latgate completion, checked by the shells
# themselves (bash -n, zsh -n, fish -n) and completing commands, flags and
# --format values in each; installs Debian's zsh and fish where missing.
shells:
	sh scripts/install-shells.sh
	$(GO) test -count=1 -run '^TestCompletionScripts$$' ./cmd/latgate -args -shells

lint:
	@unformatted=$$(gofmt -l $$($(GO) list -f '{{.Dir}}' ./...)); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# No binary or generated file in git: every tracked file outside vendor/
# and docs/img/ is under 1 MB.
treecheck:
	@big=$$(git ls-files -z -- ':!vendor' ':!docs/img' | xargs -0 -r stat -c '%s %n' | awk '$$1 > 1048576 {print $$2 " (" $$1 " bytes)"}'); \
	if [ -n "$$big" ]; then echo "tracked files over 1 MB (binaries and generated files stay out of git):"; echo "$$big"; exit 1; fi

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzSSE$$' -fuzztime $(FUZZTIME) ./probe
	$(GO) test -run '^$$' -fuzz '^FuzzDecoders$$' -fuzztime $(FUZZTIME) ./probe
	$(GO) test -run '^$$' -fuzz '^FuzzFramers$$' -fuzztime $(FUZZTIME) ./probe
	$(GO) test -run '^$$' -fuzz '^FuzzChatLeanPath$$' -fuzztime $(FUZZTIME) ./probe
	$(GO) test -run '^$$' -fuzz '^FuzzServerTiming$$' -fuzztime $(FUZZTIME) ./probe
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./suite
	$(GO) test -run '^$$' -fuzz '^FuzzDecoders$$' -fuzztime $(FUZZTIME) ./interop
	$(GO) test -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZTIME) ./fileio
	$(GO) test -run '^$$' -fuzz '^FuzzReadMooncake$$' -fuzztime $(FUZZTIME) ./workload
	$(GO) test -run '^$$' -fuzz '^FuzzReadAzure$$' -fuzztime $(FUZZTIME) ./workload
	$(GO) test -run '^$$' -fuzz '^FuzzReadBurstGPT$$' -fuzztime $(FUZZTIME) ./workload
	$(GO) test -run '^$$' -fuzz '^FuzzReadOTLP$$' -fuzztime $(FUZZTIME) ./workload
	$(GO) test -run '^$$' -fuzz '^FuzzReadLatgate$$' -fuzztime $(FUZZTIME) ./workload
	$(GO) test -count=1 -run '^TestSoak$$' ./probe -soak -soak-duration 2s -soak-streams 16 -soak-timeout 3s

# Hostile servers streaming without end, 16 requests at once per kind for
# 30 s each (docs/performance.md): resident memory, CPU, every request
# ended within its timeout, no goroutine left; about 5 minutes.
soak:
	$(GO) test -count=1 -run '^TestSoak$$' -v -timeout 30m ./probe -soak

demo:
	$(GO) run ./cmd/latgate demo

# Speed and memory targets live in benchmarks; results go to docs/performance.md.
# The fidelity study runs the simulator as a separate process and installs
# the openai npm package (v6) for the reference client.
bench: bench-realtime
	$(GO) test -run '^$$' -bench . -benchmem ./probe ./fileio
	$(GO) test -count=1 -run '^TestFidelity$$' -v -timeout 30m ./probe -fidelity

# latgate compare on two large results files (docs/performance.md): 20
# scenarios × BENCH_REQUESTS requests per side, 31 gaps per request, written
# to a temporary folder (removed after); wall time and peak resident memory.
BENCH_REQUESTS ?= 10000
bench-compare:
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	$(GO) build -o "$$d/latgate" ./cmd/latgate && \
	$(GO) run ./internal/cmd/resultsgen -o "$$d" -requests $(BENCH_REQUESTS) && \
	cd "$$d" && /usr/bin/time -v ./latgate compare base.json head.json --format json > verdict.json 2> time.txt; \
	grep -E 'Elapsed|Maximum resident|User time|System time' "$$d/time.txt"

# The Realtime API's peer check: latgate and the openai npm package's
# Realtime WebSocket (with ws, for Node 20) against the simulator over TLS,
# on TTFT; a few minutes.
bench-realtime:
	$(GO) test -count=1 -run '^TestFidelityRealtime$$' -v -timeout 30m ./probe -fidelity

# A real inference engine (Ollama built from the Go module proxy); minutes.
# Then its capacity: OLLAMA_NUM_PARALLEL=4 against 1 in latgate ab (50-85 s
# on the shared 2-core machine; docs/performance.md).
e2e-real:
	bash scripts/e2e-real.sh
	bash scripts/e2e-real/capacity.sh

# A real gateway: Debian's nginx (installed by the script), its primary
# and backup servers behind latgate's fault proxies, each in front of a
# latgate sim; latgate ab of nginx with proxy_read_timeout 1s against
# 500ms through three phases (healthy, primary stalled before its first
# byte, recovered): who served each request, the failover time and the
# user-felt TTFT of each phase (scripts/e2e-gateway.sh); about a minute.
e2e-gateway:
	bash scripts/e2e-gateway.sh

# A real Vercel AI SDK chat route (the ai package from npm, pinned, and its
# mock model; Node 22 from npm too): latgate's api: ai-sdk against the
# server's own timestamps, and an ab with a slower tool; about 2 minutes.
# The prompt lexicon of trace replay (workload/synth.go): each word one
# token after a space in cl100k_base and o200k_base (gpt-tokenizer from npm,
# pinned, installed into a temporary folder); seconds.
lexicon-check:
	d=$$(mktemp -d) && cp scripts/lexicon/package.json scripts/lexicon/package-lock.json scripts/lexicon/check.mjs "$$d" && \
	(cd "$$d" && npm ci --no-audit --no-fund --loglevel=error) && node "$$d/check.mjs" workload/synth.go; s=$$?; rm -rf "$$d"; exit $$s

e2e-aisdk:
	bash scripts/e2e-aisdk.sh

# Tests in headless Chromium (Debian's chromium, installed by the script):
# comments as GitHub renders them and the HTML report (package report), and
# the browser driver against the simulator's chat page and hostile pages
# (package browser: painted times against the page's own stamps, the
# client stage of ?cost=40, Ctrl-C leaving no process); one package at a
# time, as they time frames; about 7 minutes on 2 cores. As root (CI's
# containers) Chromium's sandbox cannot run: NO_SANDBOX allows the tests'
# own pages to run without it.
browser-test:
	sh scripts/install-chromium.sh
	$(NO_SANDBOX) $(GO) test -tags browser -count=1 -p 1 -run '^TestBrowser' -timeout 20m ./report ./browser ./gate

# A real frontend in a real browser: a chat page on the AI SDK's useChat
# with marked and highlight.js (npm, pinned), bundled with esbuild in two
# builds and served beside the AI SDK route of e2e-aisdk; its painted TTFT
# and client stage, and a head that renders the whole Markdown on every
# token; about 3 minutes.
e2e-browser:
	bash scripts/e2e-browser.sh

# The PNGs of docs/report.md, from the same pages.
screenshots:
	sh scripts/install-chromium.sh
	$(GO) test -tags browser -count=1 -run '^TestScreenshots$$' -timeout 10m ./report -screenshots $(CURDIR)/docs/img

# The statistics calibration study (docs/statistics.md). Parts: classic,
# drift, needn, noise, adaptive, init (the adaptive A/B design of latgate
# init's suite, with regression.confirm), sessions, tests (the comparison
# of test statistics), streams (names, order and random streams against
# verdicts), strata (strata of input length of a run drawn from a trace)
# (package compare), trend (the change-point detector of main's
# trend, package trend: 1,000 series per case, TREND_SERIES) and capacity
# (latgate ab's capacity regression and the search's cost, on the
# simulator's capacity model on virtual time, package gate: CAP_REPS runs
# per row, about 15 minutes at 200); e.g.
# `make calibrate CAL_STUDY=drift CAL_REPS=200 CAL_FLAGS='-perms 500'` or
# `make calibrate CAL_STUDY=trend`.
CAL_STUDY ?= classic,drift,needn,noise,adaptive,init,sessions,tests,streams,strata,trend,capacity
CAP_REPS ?= 200
CAL_REPS ?= 500
CAL_FLAGS ?=
TREND_SERIES ?= 1000
calibrate:
	@case ",$(CAL_STUDY)," in *,classic,*|*,drift,*|*,needn,*|*,noise,*|*,adaptive,*|*,init,*|*,sessions,*|*,tests,*|*,streams,*|*,strata,*) \
		$(GO) test -count=1 -run '^TestCalibration(Adaptive|Sessions|Tests|Streams|Strata)?$$' -v -timeout 300m ./compare -calibrate -study $(CAL_STUDY) -reps $(CAL_REPS) $(CAL_FLAGS);; esac
	@case ",$(CAL_STUDY)," in *,trend,*) \
		$(GO) test -count=1 -run '^TestCalibration$$' -v -timeout 60m ./trend -calibrate -series $(TREND_SERIES);; esac
	@case ",$(CAL_STUDY)," in *,capacity,*) \
		$(GO) test -count=1 -run '^TestCalibrationCapacity$$' -v -timeout 120m ./gate -calibrate -study capacity -reps $(CAP_REPS);; esac

# The action on a real Actions runner (nektos/act, host mode); installs act.
e2e-action:
	bash scripts/e2e-action.sh

release:
	@rm -rf dist && mkdir -p dist
	@for os in linux darwin windows; do for arch in amd64 arm64; do \
		ext=; [ $$os = windows ] && ext=.exe; \
		echo "building $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/latgate_$${os}_$${arch}$$ext ./cmd/latgate || exit 1; \
	done; done
	@cd dist && sha256sum latgate_* > SHA256SUMS && cat SHA256SUMS
	@# The release commit holds its version and its binaries' checksums:
	@# scripts/install.sh (the Action) verifies every download and every
	@# cached binary against RELEASE.sha256 in the action's own tree, never
	@# against anything published with the release. See docs/workflows.md.
	@if echo "$(VERSION)" | grep -Eq '^v[0-9]+\.[0-9]+\.[0-9]+$$'; then \
		echo "$(VERSION)" > RELEASE && cp dist/SHA256SUMS RELEASE.sha256 && \
		echo "wrote RELEASE ($(VERSION)) and RELEASE.sha256: commit them (the release commit), tag it $(VERSION), move the major tag to it and upload dist/"; \
	else echo "$(VERSION) is not a release version (vX.Y.Z): RELEASE and RELEASE.sha256 not written"; fi

clean:
	rm -rf bin dist
