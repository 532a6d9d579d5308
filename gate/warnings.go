package gate

import (
	"fmt"
	"math"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// RunWarnings are what a results file says about how it was measured that
// a reader must know: streams that arrived buffered, open-loop schedules
// the client could not keep (coordinated omission), events of unknown
// types, rate limits, what the server said that latgate could not use.
func RunWarnings(f *results.File) []string { return runWarnings(f, digestFiles(f)) }

// ReplayLagMs is the lag p95 of a replay's sends behind the trace's times
// beyond which the client, not the server, set the load.
const ReplayLagMs = 5.0

// runWarnings are RunWarnings from the runs' digests.
func runWarnings(f *results.File, ds report.Digests) []string {
	var w []string
	for i := range f.Runs {
		r := &f.Runs[i]
		b := &ds.Of(r).Breakdown
		name := report.EscapeName(r.Scenario) + " @ " + report.EscapeName(r.Endpoint)
		if r.Variant != "" {
			name += " (" + string(r.Variant) + ")"
		}
		if b.BufferedMostly() && b.Page {
			w = append(w, fmt.Sprintf("%s: %d of %d pages showed nothing until their stream had ended (buffered): the page waits for the whole answer (await res.text() or res.json(), a fetch read to its end) or renders only at the end — users see no stream", name, b.Buffered, b.OK))
		} else if b.BufferedMostly() {
			w = append(w, fmt.Sprintf("%s: %d of %d streams arrived buffered (the answer came all at once after the wait): something between the model and the client holds the output until it is complete or a buffer fills: a proxy or gateway (nginx proxy_buffering, a CDN or API gateway, compression middleware), or the server itself (a writer it does not flush after each event) — users see nothing, then the whole answer", name, b.Buffered, b.OK))
		}
		if b.Page && b.OK > 0 && b.NoStream*2 >= b.OK {
			w = append(w, pageWarning(name, b.NoStream, b.OK))
		}
		if b.RateLimited > 0 {
			w = append(w, rateLimited(name, r.Config, b.RateLimited))
		}
		if b.Unknown > 0 {
			w = append(w, fmt.Sprintf("%s: the server sent %d events of types latgate does not know: ignored; if one of them carries the answer, its TTFT is measured late (docs/metrics.md, realtime)", name, b.Unknown))
		}
		w = append(w, serverWarnings(name, r, b)...)
		// A rate search's levels time every request from its scheduled
		// send: their lag is measured, not hidden.
		if cw := coldWarning(name, ds.Of(r)); cw != "" {
			w = append(w, cw)
		}
		if ww := windowWarning(name, r); ww != "" { // a sharded ladder's level (ladder.go)
			w = append(w, ww)
		}
		if t := ds.Of(r).Trace; t != nil && r.Workload != nil && r.Workload.Timing == "replay" && t.LagP95 > ReplayLagMs {
			w = append(w, fmt.Sprintf("%s: the replay fell behind the trace's times: its sends' lag p95 is %s ms (more than %g ms): latgate did not send the trace's load — all its max_in_flight workers were waiting on answers (raise max_in_flight when the server is slow to answer), or its machine could not keep the speedup (lower workload.speedup); latencies under that load are understated", name, report.Millis(t.LagP95), ReplayLagMs))
		} else if b.OK > 0 && b.Late*10 >= b.OK && r.Level == nil {
			w = append(w, fmt.Sprintf("%s: %d of %d requests were sent more than %d ms behind their open-loop schedule: the client could not keep the rate (raise max_in_flight or lower rate); latencies under that load are understated", name, b.Late, b.OK, report.LateMs))
		}
	}
	return w
}

// RunPlan are the facts of how a results file's runs were measured that
// its report states (not warnings): where an adaptive scenario stopped and
// why, and the lanes a scenario was measured on.
func RunPlan(f *results.File) []string {
	var p []string
	lanes := map[int][]string{} // lanes → the scenarios measured on them
	var order []int
	for i := range f.Runs {
		r := &f.Runs[i]
		if r.Variant == vocab.Base {
			continue // said once, of the head
		}
		name := report.EscapeName(r.Scenario) + " @ " + report.EscapeName(r.Endpoint)
		switch {
		case r.RequestsMin == 0 || r.StoppedAt == 0:
		case r.StoppedAt < r.Config.Requests:
			p = append(p, fmt.Sprintf("%s: adaptive: stopped at %d of %d requests per side: %s", name, r.StoppedAt, r.Config.Requests, report.EscapeName(r.StopReason)))
		default:
			p = append(p, fmt.Sprintf("%s: adaptive: measured all %d requests per side: %s", name, r.Config.Requests, report.EscapeName(r.StopReason)))
		}
		if k := r.Config.Lanes; k > 1 {
			if _, ok := lanes[k]; !ok {
				order = append(order, k)
			}
			lanes[k] = append(lanes[k], name)
		}
	}
	for _, k := range order {
		who := "every scenario"
		if len(order) > 1 || len(lanes[k]) < headRuns(f) {
			who = strings.Join(lanes[k], ", ")
		}
		p = append(p, fmt.Sprintf("%s: measured on %d lanes, %d copies of the scenario's load at once: latencies and budgets are those at that load (a self-hosted engine answers slower under load; in ab both variants meet it alike)", who, k, k))
	}
	return p
}

// headRuns counts the runs RunPlan speaks of: every run but a base
// variant's.
func headRuns(f *results.File) int {
	n := 0
	for i := range f.Runs {
		if f.Runs[i].Variant != vocab.Base {
			n++
		}
	}
	return n
}

// serverWarnings are what a run's server said that latgate could not use:
// values of its own time it did not trust, and scrapes of its metrics
// page that failed (a warning, never a failed run).
func serverWarnings(name string, r *results.Run, b *report.Breakdown) []string {
	var w []string
	if b.ServerIgnored > 0 {
		w = append(w, fmt.Sprintf("%s: the server reported %d values of its own time that latgate did not trust, ignored (the first: %s)", name, b.ServerIgnored, report.EscapeName(b.ServerIgnoredWhy)))
	}
	if m := r.ServerMetrics; m != nil {
		if m.Failed > 0 {
			w = append(w, fmt.Sprintf("%s: metrics_url: %d of %d scrapes failed", name, m.Failed, m.Scrapes))
		}
		for _, x := range m.Warnings {
			w = append(w, fmt.Sprintf("%s: metrics_url: %s", name, report.EscapeName(x)))
		}
	}
	return w
}

// digestFiles digests every run of files (nil ones skipped) from its
// requests.
func digestFiles(files ...*results.File) report.Digests {
	ds := report.Digests{}
	for _, f := range files {
		if f == nil {
			continue
		}
		for i := range f.Runs {
			ds[&f.Runs[i]] = report.DigestOf(&f.Runs[i])
		}
	}
	return ds
}

// rateLimited says what the endpoint's rate limit did to a run: each 429
// is a failed request, counted by the error rate and never a latency
// sample, and lanes multiply the load that met the limit.
func rateLimited(name string, c results.RunConfig, n int) string {
	load := "the load (concurrency or rate)"
	if c.Lanes > 1 {
		load = fmt.Sprintf("lanes (%d copies of the scenario's load at once)", c.Lanes)
	}
	return fmt.Sprintf("%s: %d requests were answered 429 Too Many Requests: each is a failed request (the error rate counts it), never a latency sample; lower %s to stay within the endpoint's rate limit", name, n, load)
}

// coldWarning says, of a run with cold samples, that they were no slower
// than its warm requests: the server did not start cold after the idle
// period, so cold_ttft measured a warm server; "" otherwise.
func coldWarning(name string, d *report.Digest) string {
	if d == nil || d.Sample == nil {
		return ""
	}
	finite := func(v []float64) []float64 {
		var out []float64
		for _, x := range v {
			if !math.IsNaN(x) {
				out = append(out, x)
			}
		}
		return compare.Sorted(out)
	}
	cold, warm := finite(d.Sample.Values[vocab.ColdTTFT]), finite(d.Sample.Values[vocab.TTFT])
	if len(cold) == 0 || len(warm) == 0 {
		return ""
	}
	c, wm := compare.Quantile(cold, 0.5), compare.Quantile(warm, 0.5)
	if c > 1.1*wm {
		return ""
	}
	return fmt.Sprintf("%s: the cold samples were no slower than the warm requests (cold TTFT p50 %s ms, warm %s ms): the server did not start cold after cold.idle — its scale-to-zero takes longer than the idle period, or something kept it warm; cold_ttft measured a warm server", name, report.Millis(c), report.Millis(wm))
}
