package report

import (
	"encoding/json"
	"io"
	"math"
	"time"

	"github.com/latgate/latgate/vocab"
)

// VerdictSchema names the JSON verdict format.
const VerdictSchema = "latgate/verdict/v1"

// jsonCheck is one check in latgate/verdict/v1. Latencies are milliseconds;
// for metric "errors" (stat "rate") values are fractions from 0 to 1.
type jsonCheck struct {
	Endpoint string `json:"endpoint"`
	Scenario string `json:"scenario"`
	Metric   string `json:"metric"`
	Stat     string `json:"stat"`
	// Stratum (an addition to v1) is, of a run drawn from a trace, the
	// stratum of input length the check is confined to (from 1), and
	// InputTokens its range, inclusive; absent for a check of every
	// request.
	Stratum     int         `json:"stratum,omitempty"`
	InputTokens *[2]int     `json:"input_tokens,omitempty"`
	Baseline    *float64    `json:"baseline"`
	Current     *float64    `json:"current"`
	DeltaPct    *float64    `json:"delta_pct"`
	CIPct       *[2]float64 `json:"ci_pct"`
	PValue      *float64    `json:"p_value"`
	Budget      *float64    `json:"budget"`
	NBaseline   int         `json:"n_baseline"`
	NCurrent    int         `json:"n_current"`
	Status      string      `json:"status"`
	CurrentCI   *[2]float64 `json:"current_ci,omitempty"`
	MinDeltaMs  *float64    `json:"min_delta_ms,omitempty"`
	NeedN       int         `json:"need_n,omitempty"`
	DetectN     int         `json:"detect_n,omitempty"`
	Reason      string      `json:"reason,omitempty"`
	Bounded     bool        `json:"bounded"`
	Regressed   bool        `json:"regressed,omitempty"`
	CIPoints    *[2]float64 `json:"ci_points,omitempty"`
	Unsettled   bool        `json:"unsettled,omitempty"`
	Confirmed   bool        `json:"confirmed,omitempty"`
	Note        string      `json:"note,omitempty"`
}

type jsonVerdict struct {
	Schema   string        `json:"schema"`
	Verdict  vocab.Verdict `json:"verdict"`
	Headline string        `json:"headline"`
	Tested   int           `json:"tested"`
	// Permutations drawn for the p-values (an addition to v1; absent when
	// nothing was tested).
	Permutations int         `json:"permutations,omitempty"`
	Alpha        float64     `json:"alpha"`
	Tolerance    float64     `json:"tolerance_pct"`
	MinDelta     float64     `json:"min_delta_ms"`
	FailOn       []string    `json:"fail_on"`
	Checks       []jsonCheck `json:"checks"`
	Warnings     []string    `json:"warnings"`
	// Plan is an addition to v1: how the run was measured.
	Plan []string `json:"plan,omitempty"`
	// Provenance is an addition to v1: absent when nothing is known.
	Provenance *jsonProvenance `json:"provenance,omitempty"`
	CostUSD    *float64        `json:"cost_usd,omitempty"`
	Costs      []jsonCost      `json:"costs,omitempty"`
	// Capacity is an addition to v1: the capacity searches, absent
	// without any.
	Capacity []jsonCapacity `json:"capacity,omitempty"`
	// Workloads is an addition to v1: the scenarios drawn from a trace,
	// absent without any.
	Workloads []jsonWorkload `json:"workloads,omitempty"`
}

type jsonProvenance struct {
	Mode            string `json:"mode,omitempty"`
	BaseSHA         string `json:"base_sha,omitempty"`
	HeadSHA         string `json:"head_sha,omitempty"`
	BaseRef         string `json:"base_ref,omitempty"`
	HeadRef         string `json:"head_ref,omitempty"`
	BaselineCreated string `json:"baseline_created,omitempty"` // RFC 3339
	HeadCreated     string `json:"head_created,omitempty"`
	HistoryRuns     int    `json:"history_runs,omitempty"`
	Runner          string `json:"runner,omitempty"`
	Region          string `json:"region,omitempty"`
	RunURL          string `json:"run_url,omitempty"`
	ReportURL       string `json:"report_url,omitempty"`
}

type jsonCost struct {
	Endpoint string  `json:"endpoint"`
	Scenario string  `json:"scenario"`
	CostUSD  float64 `json:"cost_usd"`
}

func provenanceJSON(p Provenance) *jsonProvenance {
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	j := jsonProvenance{Mode: p.Mode, BaseSHA: p.BaseSHA, HeadSHA: p.HeadSHA, BaseRef: p.BaseRef, HeadRef: p.HeadRef,
		BaselineCreated: ts(p.BaselineCreated), HeadCreated: ts(p.HeadCreated), HistoryRuns: p.HistoryRuns,
		Runner: p.Runner, Region: p.Region, RunURL: p.RunURL, ReportURL: p.ReportURL}
	if j == (jsonProvenance{}) {
		return nil
	}
	return &j
}

func num(v, scale float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	x := math.Round(v*scale*1000) / 1000
	return &x
}

func pair(v [2]float64, scale float64) *[2]float64 {
	a, b := num(v[0], scale), num(v[1], scale)
	if a == nil || b == nil {
		return nil
	}
	return &[2]float64{*a, *b}
}

func init() {
	ReportFormats.Register(ReportFormat{Name: "json", Write: func(w io.Writer, r *Report, _ RenderOptions) error { return JSON(w, r) }})
}

// JSON writes the verdict as latgate/verdict/v1.
func JSON(w io.Writer, r *Report) error {
	v := jsonVerdict{Schema: VerdictSchema, Verdict: r.Verdict, Headline: r.Headline, Tested: r.Tested,
		Permutations: r.Result.Permutations,
		Alpha:        r.Thresholds.Alpha, Tolerance: 100 * r.Thresholds.Tolerance, MinDelta: r.minDeltaMs(),
		FailOn: r.failOn(), Checks: []jsonCheck{}, Warnings: append([]string{}, r.Warnings...), Plan: r.Plan,
		Provenance: provenanceJSON(r.Provenance), Capacity: capacityJSON(r.Capacity)}
	if len(r.Costs) > 0 {
		usd := math.Round(r.CostUSD()*1e6) / 1e6
		v.CostUSD = &usd
		for _, c := range r.Costs {
			v.Costs = append(v.Costs, jsonCost{Endpoint: c.Endpoint, Scenario: c.Scenario, CostUSD: math.Round(c.USD*1e6) / 1e6})
		}
	}
	for _, x := range r.Removed {
		v.Warnings = append(v.Warnings, "removed since the baseline: "+x)
	}
	for _, c := range r.Result.Checks {
		scale := 1.0 // milliseconds, or a fraction for errors
		jc := jsonCheck{
			Endpoint: c.Endpoint, Scenario: c.Scenario, Metric: string(c.Metric), Stat: string(c.Stat),
			Baseline: num(c.Baseline, scale), Current: num(c.Current, scale),
			DeltaPct: num(c.DeltaPct, 1), CIPct: pair(c.CIPct, 1), PValue: num(c.PValue, 1),
			Budget: num(c.Budget, scale), NBaseline: c.NBase, NCurrent: c.NCurrent, Status: string(c.Status),
			CurrentCI: pair(c.CurrentCI, scale), NeedN: c.NeedN, DetectN: c.DetectN, Reason: string(c.Reason), Unsettled: c.Unsettled, Confirmed: c.Confirmed, Note: note(c, r.Thresholds),
			Bounded: c.Bounded, Regressed: c.Regressed, CIPoints: pair(c.CIPoints, scale),
		}
		if !c.Metric.IsRate() {
			jc.MinDeltaMs = num(c.MinDelta, 1)
		}
		jc.Stratum, jc.InputTokens = c.Stratum, r.inputRange(c)
		if c.PValue > 0 && c.PValue < 0.001 {
			p := c.PValue // keep small p-values visible rather than rounding to 0
			jc.PValue = &p
		}
		v.Checks = append(v.Checks, jc)
	}
	v.Workloads = workloadsJSON(r)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
