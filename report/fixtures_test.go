package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// hostileName has Markdown, HTML, pipes, backticks, a link, a mention, an
// emoji shortcode and emoji, and is 200 characters long.
var hostileName = func() string {
	s := "**bold** <img src=x onerror=alert(1)> | `code` [link](https://evil.test) @org/team :tada: 🚀 <!-- ~~x~~ www.evil.test $$x$$ "
	for len([]rune(s)) < 200 {
		s += "x"
	}
	return string([]rune(s)[:200])
}()

// suiteCase is one comment the tests and the screenshots render.
type suiteCase struct {
	name string
	runs func(rng *rand.Rand) (base, cur []results.Run)
}

func thresholds() compare.Config {
	return compare.Config{
		Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: 300, Bootstrap: 100,
		FailOn:  []vocab.Status{vocab.Regression, vocab.OverBudget},
		Budgets: []compare.Budget{{Metric: "ttft", Stat: "p95", Value: 900}},
	}
}

var suiteCases = []suiteCase{
	{"pass", func(rng *rand.Rand) (b, c []results.Run) {
		for _, sc := range []string{"chat-short", "chat-long"} {
			b = append(b, fixtureRun(rng, "us-east", sc, 60, 0.30, 0.010, 0, false, false))
			c = append(c, fixtureRun(rng, "us-east", sc, 60, 0.30, 0.010, 0, false, false))
		}
		return
	}},
	{"fail", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "chat-short", 60, 0.30, 0.010, 0, false, false),
			fixtureRun(rng, "us-east", "chat-long", 60, 0.50, 0.010, 0, false, false),
			fixtureRun(rng, "eu-west", "chat-short", 60, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "chat-short", 60, 0.75, 0.010, 0.35, false, false),
			fixtureRun(rng, "us-east", "chat-long", 60, 0.52, 0.010, 0, false, false),
			fixtureRun(rng, "eu-west", "chat-short", 60, 0.30, 0.016, 0, false, false))
		return
	}},
	{"improvement", func(rng *rand.Rand) (b, c []results.Run) {
		for _, sc := range []string{"chat-short", "chat-long"} {
			b = append(b, fixtureRun(rng, "us-east", sc, 60, 0.60, 0.010, 0, false, false))
			c = append(c, fixtureRun(rng, "us-east", sc, 60, 0.24, 0.010, 0, false, false))
		}
		return
	}},
	{"few-requests", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "chat", 20, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "chat", 20, 0.45, 0.010, 0, false, false))
		return
	}},
	{"hostile", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, hostileName, hostileName, 1, 0.30, 0.010, 0, false, false),
			fixtureRun(rng, "| a | b |", "<script>alert(1)</script>", 30, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, hostileName, hostileName, 1, 0.90, 0.010, 0, false, false),
			fixtureRun(rng, "| a | b |", "<script>alert(1)</script>", 30, 0.30, 0.010, 1, false, false))
		q := &c[1].Requests[0]
		q.Error, q.Failure, q.Status = "HTTP 500 <b>boom</b> | `x`: "+hostileName, vocab.HTTPStatus, 500
		return
	}},
	{"agent", func(rng *rand.Rand) (b, c []results.Run) {
		// The answer step 40% slower and a fourth step in 40% of the
		// sessions; 4% of sessions fail at their last step.
		sh := sessionShape{toolSteps: 2, toolTTFT: 0.30, answerTTFT: 0.35, toolMs: 150, pace: 0.012, failRate: 0.04}
		b = append(b, sessionRun(rng, "us-east", "order-status", 60, sh))
		sh.answerTTFT, sh.extra = 0.49, 0.4
		c = append(c, sessionRun(rng, "us-east", "order-status", 60, sh))
		return
	}},
	{"aisdk", func(rng *rand.Rand) (b, c []results.Run) {
		// A server-driven agent over two turns, its tool 175 ms on the
		// server (run inside the step); the head's tool takes 260 ms and
		// its answers' model waits 30% longer.
		sh := sessionShape{toolTTFT: 0.40, answerTTFT: 0.30, toolMs: 175, pace: 0.010}
		b = append(b, serverSessionRun(rng, "next-app", "order-chat", 60, 2, sh))
		sh.answerTTFT, sh.toolMs = 0.39, 260
		c = append(c, serverSessionRun(rng, "next-app", "order-chat", 60, 2, sh))
		return
	}},
	{"engine", func(rng *rand.Rand) (b, c []results.Run) {
		// An engine that reports its queue and prefill: its queue grew by
		// about 180 ms, its prefill and what is outside it did not.
		b = append(b, engineRun(rng, "vllm", "chat", 60, 20, 150))
		c = append(c, engineRun(rng, "vllm", "chat", 60, 200, 152))
		return
	}},
	{"page", func(rng *rand.Rand) (b, c []results.Run) {
		// A chat page in a browser whose head renders more on every
		// update: 40 ms more client stage; 5% of its requests fail on
		// the page.
		b = append(b, pageRun(rng, "web", "chat-page", 40, 0.30, 12, 0))
		c = append(c, pageRun(rng, "web", "chat-page", 40, 0.33, 52, 0.05))
		return
	}},
	{"capacity", func(rng *rand.Rand) (b, c []results.Run) {
		// Beside the capacity searches (capacityCases), one scenario
		// measured at one load, its GPU exporter's and vLLM's pages
		// scraped: the head's GPUs busier, its drafts accepted less.
		b = append(b, fixtureRun(rng, "gpu-pool", "chat-short", 60, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "gpu-pool", "chat-short", 60, 0.31, 0.010, 0, false, false))
		b[0].ServerMetrics, c[0].ServerMetrics = gpuPage(2, 41, 300, 0.7), gpuPage(2, 97, 320, 0.55)
		return
	}},
	{"large", func(rng *rand.Rand) (b, c []results.Run) {
		// 4 endpoints × 15 scenarios: about 1,000 checks.
		for e := range 4 {
			ep := fmt.Sprintf("region-%d-%s", e, strings.Repeat("long", e))
			for s := range 15 {
				sc := fmt.Sprintf("scenario-%02d-with-a-longish-name", s)
				ttft := 0.2 + 0.05*float64(s%5)
				b = append(b, fixtureRun(rng, ep, sc, 50, ttft, 0.010, 0, false, false))
				f := 1.0
				switch {
				case s%7 == 0 && e%2 == 0:
					f = 1.6
				case s%5 == 0:
					f = 0.6
				}
				c = append(c, fixtureRun(rng, ep, sc, 50, ttft*f, 0.010, 0.02*float64(e), false, false))
			}
		}
		return
	}},
}

// buildCase compares a case's runs and fills a fixed provenance.
func buildCase(t testing.TB, sc suiteCase) *Report {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, uint64(len(sc.name))))
	br, cr := sc.runs(rng)
	base := &results.File{Schema: results.Schema, MetricsVersion: 1, Runs: br,
		CreatedAt: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), Source: results.Source{GitSHA: "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", Runner: "ubuntu-24.04"}}
	cur := &results.File{Schema: results.Schema, MetricsVersion: 1, Runs: cr,
		CreatedAt: time.Date(2026, 11, 30, 10, 30, 0, 0, time.UTC), Source: results.Source{GitSHA: "fedcba9876543210fedcba9876543210fedcba98", Runner: "ubuntu-24.04", Region: "eu"}}
	pairs := results.Match(base, cur)
	th := thresholds()
	rep := Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
	if cs := capacityCases[sc.name]; cs != nil {
		// As gate adds them: a capacity regression fails the verdict, and
		// so does a head search that was cut.
		rep.Capacity = cs(rng)
		for _, c := range rep.Capacity {
			if c.Status == vocab.Regression || !c.Head.Result.Complete() {
				rep.Verdict = vocab.Fail
			}
		}
		rep.Headline = Headline(rep)
	}
	rep.Provenance = ProvenanceOf(base, cur)
	rep.Provenance.Mode = "gate"
	rep.Provenance.RunURL = "https://github.com/o/r/actions/runs/1"
	rep.Provenance.ReportURL = "https://github.com/o/r/actions/runs/1/artifacts/2"
	return rep
}

func compareEmpty() compare.Result { return compare.Compare(nil, thresholds()) }

// engineRun is fixtureRun against an engine that reports its time (as
// vLLM's per-request metrics do): each TTFT is its queue (log-normal around
// queueMs), its prefill (around prefillMs) and 30 ms outside the engine.
func engineRun(rng *rand.Rand, endpoint, scenario string, n int, queueMs, prefillMs float64) results.Run {
	r := fixtureRun(rng, endpoint, scenario, n, 0.1, 0.010, 0, false, false)
	for i := range r.Requests {
		q := &r.Requests[i]
		queue, prefill := queueMs*math.Exp(0.2*rng.NormFloat64()), prefillMs*math.Exp(0.05*rng.NormFloat64())
		ttft := queue + prefill + 30
		*q.TotalMs += ttft - *q.TTFTMs
		q.TTFTMs, q.TTFCMs, q.PerceivedMs = f64(ttft), f64(ttft), f64(ttft)
		q.Server = &results.ServerTiming{QueueMs: f64(queue), PrefillMs: f64(prefill), DecodeMs: f64(*q.TotalMs - ttft), Source: "vllm"}
		q.OutsideMs = f64(30)
	}
	return r
}
