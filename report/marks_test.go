package report

import (
	"math"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// TestDecidingCheck: the change chart draws the statistic that decided a
// row's status. An A/A run whose TTFT p50 fell 12% (not significant: ok)
// while its p95 rose 21% (inconclusive) charts the p95; a regression on
// p50 and mean charts the p50 (a quantile), not the larger mean.
func TestDecidingCheck(t *testing.T) {
	t.Parallel()
	check := func(stat vocab.Stat, delta float64, st vocab.Status) compare.Check {
		return compare.Check{Metric: vocab.TTFT, Stat: stat, Baseline: 100, Current: 100 + delta, DeltaPct: delta, Status: st,
			PValue: 0.2, CIPct: [2]float64{math.NaN(), math.NaN()}}
	}
	for _, tt := range []struct {
		name   string
		checks []compare.Check
		want   vocab.Stat
	}{
		{"p95 inconclusive beside a lower p50", []compare.Check{check(vocab.P50, -12, vocab.Inconclusive), check(vocab.P95, 21, vocab.Inconclusive), check(vocab.Mean, -3, vocab.OK)}, vocab.P95},
		{"regression on p50 and mean", []compare.Check{check(vocab.P50, 40, vocab.Regression), check(vocab.P95, 30, vocab.OverBudget), check(vocab.Mean, 60, vocab.Regression)}, vocab.P50},
		{"over budget beats inconclusive", []compare.Check{check(vocab.P50, 30, vocab.Inconclusive), check(vocab.P95, 5, vocab.OverBudget)}, vocab.P95},
	} {
		got, ok := decidingCheck(Row{Metric: vocab.TTFT, Checks: tt.checks})
		if !ok || got.Stat != tt.want {
			t.Errorf("%s: charts %s (found %v), want %s", tt.name, got.Stat, ok, tt.want)
		}
	}
}

// TestToolSpan: a tool is drawn where it ran. On an AI SDK route the
// server runs it inside its step (step 1 from 0 to 600 ms, its arguments
// complete at 425, the tool 175 ms, step 2 from 600): 425–600, not 600–775
// over step 2. In a loop latgate drives, after the step's call, until the
// next step is sent.
func TestToolSpan(t *testing.T) {
	t.Parallel()
	server := &results.Request{Steps: []results.Step{
		{StartMs: 0, TTFTMs: f64(405), ToolCallMs: f64(425), TotalMs: f64(600), ToolMs: 175, ToolCalls: 1},
		{StartMs: 600, TTFTMs: f64(300), TotalMs: f64(420)},
	}}
	client := &results.Request{Steps: []results.Step{
		{StartMs: 0, TTFTMs: f64(283), ToolCallMs: f64(317), TotalMs: f64(317), ToolMs: 150, ToolCalls: 1},
		{StartMs: 467.2, TTFTMs: f64(300), TotalMs: f64(420)},
	}}
	for _, tt := range []struct {
		name     string
		q        *results.Request
		from, to float64
	}{{"server-driven", server, 425, 600}, {"client-driven", client, 317, 467}} {
		from, to, ok := toolSpan(tt.q, 0)
		if !ok || from != tt.from || to != tt.to {
			t.Errorf("%s: tool drawn %v–%v (%v), want %v–%v", tt.name, from, to, ok, tt.from, tt.to)
		}
		if _, _, ok := toolSpan(tt.q, 1); ok {
			t.Errorf("%s: the answer step has a tool span", tt.name)
		}
	}
}

// TestBadgeNamesEveryMetric: a badge names every metric it concerns, in
// words ("TTFT, inter-token, total and perceived"), never "+2".
func TestBadgeNamesEveryMetric(t *testing.T) {
	t.Parallel()
	var checks []compare.Check
	for _, m := range []vocab.Metric{vocab.TTFT, vocab.ITL, vocab.Total, vocab.Perceived} {
		checks = append(checks, compare.Check{Metric: m, Stat: vocab.P50, Status: vocab.Regression, DeltaPct: 50})
	}
	got := badgesOf(checks, nil, nil)[0].String()
	if got != "❌ TTFT, inter-token, total and perceived regression" || strings.Contains(got, "+") {
		t.Errorf("badge %q", got)
	}
}
