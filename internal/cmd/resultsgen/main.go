// Command resultsgen writes a baseline and a current results file of a
// synthetic suite for measuring latgate compare on large files
// (docs/performance.md, make bench-compare):
//
//	go run ./internal/cmd/resultsgen -o DIR [-scenarios 20] [-requests 10000] [-gaps 31] [-slower 0.3]
//
// It writes DIR/base.json and DIR/head.json as latgate writes them: every
// request with its keys, times to the microsecond, about 1% failed (HTTP
// 429 or a stall), 31 inter-token gaps per successful request by default.
// -slower makes every fourth scenario of the head that much slower.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/results"
)

type options struct {
	scenarios, requests, gaps int
	slower                    float64
}

func main() {
	var o options
	out := flag.String("o", ".", "output `folder` for base.json and head.json")
	flag.IntVar(&o.scenarios, "scenarios", 20, "scenarios per file")
	flag.IntVar(&o.requests, "requests", 10000, "requests per scenario")
	flag.IntVar(&o.gaps, "gaps", 31, "inter-token gaps per successful request")
	flag.Float64Var(&o.slower, "slower", 0, "how much slower every fourth scenario of the head is (0.3: 30%)")
	flag.Parse()
	for i, side := range []string{"base", "head"} {
		path := filepath.Join(*out, side+".json")
		if err := fileio.Write(path, file(o, side == "head", uint64(i+1))); err != nil {
			fmt.Fprintln(os.Stderr, "resultsgen:", err)
			os.Exit(1)
		}
		st, err := os.Stat(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "resultsgen:", err)
			os.Exit(1)
		}
		fmt.Printf("resultsgen: wrote %s (%d scenarios × %d requests, %.0f MB)\n", path, o.scenarios, o.requests, float64(st.Size())/1e6)
	}
}

// file is one side of the suite.
func file(o options, head bool, seed uint64) *results.File {
	rng := rand.New(rand.NewPCG(seed, 23))
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "resultsgen",
		CreatedAt: time.Date(2026, 11, 30, 4, 31, 0, 0, time.UTC),
		Source:    results.Source{GitSHA: fmt.Sprintf("%040x", seed), GitRef: "refs/heads/main", Runner: "resultsgen"}}
	for s := range o.scenarios {
		scale := 1.0
		if head && s%4 == 0 {
			scale += o.slower
		}
		run := results.Run{Endpoint: "us-east", Scenario: fmt.Sprintf("scenario-%02d", s), Model: "gpt-4o-mini",
			Fingerprint: fmt.Sprintf("sha256:%064x", s), ConfigLine: 10 + 6*s,
			Config:   results.RunConfig{MaxTokens: o.gaps + 1, Concurrency: 8, Requests: o.requests, Warmup: 8, ReadingRate: 10},
			Requests: make([]results.Request, 0, o.requests)}
		level, sent := 250*(1+0.05*float64(s))*scale, 0.0
		for range o.requests {
			q := request(rng, o.gaps, level, scale)
			sent += 40 * rng.ExpFloat64()
			q.SentMs = ms(sent)
			run.Requests = append(run.Requests, q)
		}
		f.Runs = append(f.Runs, run)
	}
	return f
}

// request is one request: successful (log-normal times) or, 1 in 100,
// failed.
func request(rng *rand.Rand, gaps int, level, scale float64) results.Request {
	ttfb := level * 0.4 * math.Exp(0.2*rng.NormFloat64())
	q := results.Request{Status: 200, Reused: rng.IntN(50) > 0, TTFBMs: ptr(ttfb), ITLMs: []float64{}, PromptTokens: 180}
	if !q.Reused {
		q.DNSMs, q.ConnectMs, q.TLSMs = ms(1+rng.Float64()), ms(2+rng.Float64()), ms(8+4*rng.Float64())
	}
	if rng.IntN(100) == 0 {
		if rng.IntN(2) == 0 {
			q.Status, q.Error = 429, "HTTP 429 Too Many Requests: Rate limit reached for requests [rate_limit_exceeded]"
			return q
		}
		q.Error, q.FirstEventMs = "stalled: no event for 30s", ptr(ttfb+0.05)
		return q
	}
	ttft := ttfb + level*0.6*math.Exp(0.3*rng.NormFloat64())
	sum, stall := 0.0, 0.0
	for range gaps {
		g := ms(12 * scale * math.Exp(0.25*rng.NormFloat64()))
		q.ITLMs = append(q.ITLMs, g)
		sum, stall = sum+g, max(stall, g)
	}
	q.OK, q.TokensSource, q.OutputTokens = true, "usage", gaps+1
	q.FirstEventMs, q.TTFTMs, q.TTFCMs, q.PerceivedMs = ptr(ttfb+0.05), ptr(ttft), ptr(ttft), ptr(ttft)
	q.TotalMs, q.MaxStallMs = ptr(ttft+sum+0.2), ptr(stall)
	q.PromptTokens += rng.IntN(40)
	// gpt-4o-mini's price, to 6 significant digits as latgate writes it.
	cost, _ := strconv.ParseFloat(strconv.FormatFloat((0.15*float64(q.PromptTokens)+0.6*float64(q.OutputTokens))/1e6, 'g', 6, 64), 64)
	q.CostUSD = &cost
	if gaps > 0 {
		q.TPOTMs = ptr(sum / float64(gaps))
	}
	return q
}

// ms rounds to the microsecond, as latgate writes times.
func ms(v float64) float64 { return math.Round(v*1000) / 1000 }

func ptr(v float64) *float64 {
	r := ms(v)
	return &r
}
