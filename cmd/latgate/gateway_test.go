package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// gatewaySetup is what scripts/e2e-gateway.sh started, from its
// LATGATE_GW_* variables: two nginx instances in front of the same two
// fault proxies' addresses (base with proxy_read_timeout baseTimeout, head
// with headTimeout), each proxy in front of a simulator whose every first
// token takes simTTFT.
type gatewaySetup struct {
	baseURL, headURL                  string
	primaryListen, primaryTo          string
	secondaryListen, secondaryTo      string
	baseTimeout, headTimeout, simTTFT float64 // ms
}

func gatewayFromEnv(t *testing.T) gatewaySetup {
	t.Helper()
	get := func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			t.Skip("needs nginx in front of two fault proxies and simulators: make e2e-gateway (missing " + k + ")")
		}
		return v
	}
	ms := func(k string) float64 {
		v, err := strconv.ParseFloat(get(k), 64)
		if err != nil || v <= 0 {
			t.Fatalf("%s=%q: want milliseconds above 0", k, os.Getenv(k))
		}
		return v
	}
	return gatewaySetup{
		baseURL: get("LATGATE_GW_BASE_URL"), headURL: get("LATGATE_GW_HEAD_URL"),
		primaryListen: get("LATGATE_GW_PRIMARY_LISTEN"), primaryTo: get("LATGATE_GW_PRIMARY_URL"),
		secondaryListen: get("LATGATE_GW_SECONDARY_LISTEN"), secondaryTo: get("LATGATE_GW_SECONDARY_URL"),
		baseTimeout: ms("LATGATE_GW_BASE_TIMEOUT_MS"), headTimeout: ms("LATGATE_GW_HEAD_TIMEOUT_MS"),
		simTTFT: ms("LATGATE_GW_SIM_TTFT_MS"),
	}
}

// gatewayPhaseRequests is each phase's measured requests per side.
const gatewayPhaseRequests = 30

// Tolerances of the real clock. failoverNear is how far the first
// failover of a phase may be from the gateway's timeout (nginx's timer,
// from its cached time, against the proxies' arrival stamps);
// failoverSlack bounds every other failover above the timeout, and
// ttftSlack the primary-down phase's TTFT p95 above the timeout plus the
// healthy phase's TTFT p95 (the same simulators through the same nginx).
// Measured with nginx 1.22.1 and a stand-in for the proxies (a Go reverse
// proxy stamping each request's arrival), 30 requests at 3 at once per
// instance, both instances at once: failovers 998.7-1006.3 ms (1s) and
// 499.6-516.2 ms (500ms) at load average 6-7 on the 2 shared cores,
// 999.5-1003.7 and 500.0-515.7 ms at 14-15 (beside 14 busy loops), where
// the first bytes spread from the timeout to 188 ms past it. The test
// itself runs once latgate starts the proxies.
const (
	failoverNear  = 50.0
	failoverSlack = 300.0
	ttftSlack     = 200.0
)

// TestRealGatewayFailover runs latgate ab through a real gateway, Debian's
// nginx (scripts/e2e-gateway.sh starts it; make e2e-gateway), configured
// to call latgate's fault proxies: a primary, and a secondary as nginx's
// backup server. The base is nginx with proxy_read_timeout 1s, the head
// with 500ms (two instances, one configuration). Three phases of 30
// requests: healthy (the primary serves every request), primary-down
// (every request to the primary stalls before its first byte: nginx waits
// its timeout, then the backup serves it, so each request records the
// secondary, a failover of about the timeout, and a TTFT of the timeout
// plus the secondary's own) and recovered (nginx's max_fails=0 never marks
// the primary down, so it serves again at once). The head's shorter
// timeout is an improvement of the primary-down phase's TTFT.
func TestRealGatewayFailover(t *testing.T) {
	g := gatewayFromEnv(t)
	dir := t.TempDir()
	t.Logf("load average before: %s", loadAvg())
	cfg := filepath.Join(dir, "gateway.yaml")
	if err := os.WriteFile(cfg, []byte(gatewaySuite(g)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ab.json")
	r := runCLI(t, nil, "ab", "-c", cfg, "--base-config", cfg, "--head-url", "gateway="+g.headURL, "-o", out)
	t.Logf("latgate ab, base nginx proxy_read_timeout %.0f ms, head %.0f ms (load average after: %s): exit %d\n%s\n%s",
		g.baseTimeout, g.headTimeout, loadAvg(), r.code, r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("latgate ab: exit %d, want 0 (an improvement fails nothing)", r.code)
	}
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []vocab.Side{vocab.Base, vocab.Head} {
		timeout := map[vocab.Side]float64{vocab.Base: g.baseTimeout, vocab.Head: g.headTimeout}[side]
		healthy := gatewayRun(t, f, side, "healthy")
		checkServedBy(t, healthy, "primary")
		healthyP95 := report.Describe(healthy).TTFT.P95
		down := gatewayRun(t, f, side, "primary-down")
		checkServedBy(t, down, "secondary")
		checkFailover(t, down, timeout, healthyP95, g.simTTFT)
		checkServedBy(t, gatewayRun(t, f, side, "recovered"), "primary")
	}
	checkGatewayVerdict(t, out, cfg)
}

// gatewaySuite is the test's suite: one endpoint (the base's nginx; the
// head's comes from --head-url), one scenario with the two proxies as
// its upstreams and three phases.
func gatewaySuite(g gatewaySetup) string {
	return fmt.Sprintf(`endpoints:
  - {name: gateway, base_url: %q, model: sim}
scenarios:
  - name: outage
    prompt: "Say hello."
    max_tokens: 16
    concurrency: 3
    upstreams:
      primary: {listen: %q, to: %q}
      secondary: {listen: %q, to: %q}
    phases:
      - {name: healthy, requests: %[6]d}
      - {name: primary-down, requests: %[6]d, faults: [{upstream: primary, kind: stall_first_token, share: 1.0}]}
      - {name: recovered, requests: %[6]d}
limits: {timeout: 10s, stall_timeout: 5s}
`, g.baseURL, g.primaryListen, g.primaryTo, g.secondaryListen, g.secondaryTo, gatewayPhaseRequests)
}

// gatewayRun is the run of the phase on the side, with the phase's
// requests, each of them a success.
func gatewayRun(t *testing.T, f *results.File, side vocab.Side, phase string) *results.Run {
	t.Helper()
	for i := range f.Runs {
		r := &f.Runs[i]
		if r.Variant != side || r.Phase != phase || r.Confirm {
			continue
		}
		if r.Scenario != "outage/"+phase {
			t.Errorf("%s %s: scenario %q, want %q", side, phase, r.Scenario, "outage/"+phase)
		}
		ok := 0
		for _, q := range r.Requests {
			if q.OK {
				ok++
			}
		}
		if len(r.Requests) != gatewayPhaseRequests || ok != len(r.Requests) {
			t.Fatalf("%s %s: %d of %d requests succeeded, want %d of %d (%s)", side, phase, ok, len(r.Requests),
				gatewayPhaseRequests, gatewayPhaseRequests, report.Describe(r).TopError)
		}
		return r
	}
	t.Fatalf("no run of phase %q on the %s side", phase, side)
	return nil
}

// checkServedBy: every request of run was served by upstream; served by
// the primary, none failed over.
func checkServedBy(t *testing.T, run *results.Run, upstream string) {
	t.Helper()
	by := map[string]int{}
	for _, q := range run.Requests {
		by[q.Upstream]++
		if upstream == "primary" && q.FailoverMs != nil {
			t.Errorf("%s %s: a request served by the primary records a failover of %.1f ms", run.Variant, run.Phase, *q.FailoverMs)
		}
	}
	b := report.Describe(run)
	t.Logf("%s %s: served by %v; TTFT p50 %.0f ms, p95 %.0f ms", run.Variant, run.Phase, by, b.TTFT.P50, b.TTFT.P95)
	if by[upstream] != len(run.Requests) {
		t.Errorf("%s %s: served by %v, want every request by %s", run.Variant, run.Phase, by, upstream)
	}
}

// checkFailover checks the primary-down phase's run: the proxy faulted the
// primary's every request; each request failed over after the gateway's
// timeout (the first within failoverNear of it); the user-felt TTFT p95
// is the timeout plus the secondary's TTFT.
func checkFailover(t *testing.T, run *results.Run, timeout, healthyP95, simTTFT float64) {
	t.Helper()
	i := slices.IndexFunc(run.Faults, func(f results.Fault) bool { return f.Upstream == "primary" })
	if i < 0 || run.Faults[i].Kind != vocab.StallFirstToken || run.Faults[i].Hit < len(run.Requests) {
		t.Errorf("%s primary-down: faults %+v, want the primary's stall_first_token hitting at least its %d requests",
			run.Variant, run.Faults, len(run.Requests))
	}
	reqs := slices.Clone(run.Requests)
	slices.SortStableFunc(reqs, func(a, b results.Request) int { return int(math.Copysign(1, a.SentMs-b.SentMs)) })
	var failovers []float64
	for _, q := range reqs {
		if q.FailoverMs != nil {
			failovers = append(failovers, *q.FailoverMs)
		}
	}
	if len(failovers) < len(reqs) {
		t.Errorf("%s primary-down: %d of %d requests record a failover, want every one (nginx's max_fails=0: each tries the primary first)",
			run.Variant, len(failovers), len(reqs))
	}
	if len(failovers) == 0 || reqs[0].FailoverMs == nil {
		return
	}
	first := *reqs[0].FailoverMs
	slices.Sort(failovers)
	ttft := report.Describe(run).TTFT.P95
	t.Logf("%s primary-down: proxy_read_timeout %.0f ms; failover of the first request %.1f ms, all from %.1f to %.1f ms; "+
		"TTFT p95 %.0f ms (timeout + the healthy phase's p95 %.0f ms = %.0f)", run.Variant, timeout, first,
		failovers[0], failovers[len(failovers)-1], ttft, healthyP95, timeout+healthyP95)
	if math.Abs(first-timeout) > failoverNear {
		t.Errorf("%s primary-down: the first request failed over after %.1f ms, want within %.0f ms of the timeout %.0f ms",
			run.Variant, first, failoverNear, timeout)
	}
	if failovers[0] < timeout-failoverNear || failovers[len(failovers)-1] > timeout+failoverSlack {
		t.Errorf("%s primary-down: failovers from %.1f to %.1f ms, want from %.0f to %.0f ms", run.Variant,
			failovers[0], failovers[len(failovers)-1], timeout-failoverNear, timeout+failoverSlack)
	}
	if lo, hi := timeout+simTTFT-failoverNear, timeout+math.Max(healthyP95, simTTFT)+ttftSlack; !(ttft >= lo && ttft <= hi) {
		t.Errorf("%s primary-down: TTFT p95 %.0f ms, want the timeout plus the secondary's TTFT: from %.0f to %.0f ms",
			run.Variant, ttft, lo, hi)
	}
}

// checkGatewayVerdict: latgate's comparison of the A/B file finds the
// head's TTFT an improvement in the primary-down phase and no regression
// anywhere.
func checkGatewayVerdict(t *testing.T, out, cfg string) {
	t.Helper()
	r := runCLI(t, nil, "compare", out, "-c", cfg, "--format", "json")
	var v struct {
		Checks []struct {
			Scenario, Metric, Stat, Status string
			Baseline, Current              *float64
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 {
		t.Fatalf("compare --format json: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	improved := false
	for _, c := range v.Checks {
		if c.Status == "regression" || c.Status == "over_budget" {
			t.Errorf("%s %s %s: %s", c.Scenario, c.Metric, c.Stat, c.Status)
		}
		if c.Scenario == "outage/primary-down" && c.Metric == "ttft" {
			t.Logf("primary-down TTFT %s: base %v ms, head %v ms: %s", c.Stat, deref(c.Baseline), deref(c.Current), c.Status)
			improved = improved || (c.Stat == "p50" && c.Status == "improvement")
		}
	}
	if !improved {
		t.Errorf("the primary-down phase's TTFT p50 is not an improvement of the head (proxy_read_timeout 500ms) over the base (1s)")
	}
}
