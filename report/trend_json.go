package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/latgate/latgate/trend"
	"github.com/latgate/latgate/vocab"
)

// TrendReportSchema identifies latgate trend's JSON (docs/formats.md).
const TrendReportSchema = "latgate/trend-report/v1"

type jsonTrend struct {
	Schema       string              `json:"schema"`
	Headline     string              `json:"headline"`
	Runs         int                 `json:"runs"`
	Repository   string              `json:"repository,omitempty"`
	Method       jsonTrendMethod     `json:"method"`
	ChangePoints []jsonChangePoint   `json:"change_points"`
	Series       []jsonTrendSeries   `json:"series"`
	Configs      []jsonConfiguration `json:"configurations"`
	Notes        []string            `json:"notes"`
}

type jsonTrendMethod struct {
	Name         string  `json:"name"`
	Scale        string  `json:"scale"`
	Alpha        float64 `json:"alpha"`
	Permutations int     `json:"permutations"`
	MinSegment   int     `json:"min_segment"`
	Level        float64 `json:"level"`
}

type jsonChangePoint struct {
	Endpoint    string       `json:"endpoint"`
	Scenario    string       `json:"scenario"`
	Metric      vocab.Metric `json:"metric"`
	Stat        vocab.Stat   `json:"stat"`
	Fingerprint string       `json:"fingerprint"`
	Index       int          `json:"index"`
	GitSHA      string       `json:"git_sha"`
	CreatedAt   time.Time    `json:"created_at"`
	StepPct     *float64     `json:"step_pct"`
	CIPct       *[2]float64  `json:"ci_pct"`
	Before      *float64     `json:"before"`
	After       *float64     `json:"after"`
	PValue      float64      `json:"p_value"`
	New         bool         `json:"new"`
}

type jsonTrendSeries struct {
	Endpoint    string           `json:"endpoint"`
	Scenario    string           `json:"scenario"`
	Metric      vocab.Metric     `json:"metric"`
	Stat        vocab.Stat       `json:"stat"`
	Fingerprint string           `json:"fingerprint"`
	Tested      bool             `json:"tested"`
	Sparse      int              `json:"sparse"`
	Level       *jsonTrendLevel  `json:"level"`
	Points      []jsonTrendPoint `json:"points"`
}

type jsonTrendLevel struct {
	First     *float64    `json:"first"`
	Current   *float64    `json:"current"`
	ChangePct *float64    `json:"change_pct"`
	CIPct     *[2]float64 `json:"ci_pct"`
}

type jsonTrendPoint struct {
	CreatedAt time.Time `json:"created_at"`
	GitSHA    string    `json:"git_sha"`
	Event     string    `json:"event,omitempty"`
	Value     float64   `json:"value"`
	N         int       `json:"n"`
}

type jsonConfiguration struct {
	Endpoint     string      `json:"endpoint"`
	Scenario     string      `json:"scenario"`
	Fingerprints []string    `json:"fingerprints"`
	From         []time.Time `json:"from"`
}

func init() {
	TrendFormats.Register(TrendFormat{Name: "json", Write: func(w io.Writer, t *Trend, _ RenderOptions) error { return TrendJSON(w, t) }})
}

// TrendJSON writes the trend as latgate/trend-report/v1: every change point
// (index: the first point of the new level, 0-based in its series' points,
// which are in time order), every series with its points and level, the
// configurations kept apart and the notes. Values in milliseconds.
func TrendJSON(w io.Writer, t *Trend) error {
	a := t.Analysis
	m := a.Method
	method := jsonTrendMethod{Name: "e-divisive means", Scale: "log", Alpha: m.Alpha, Permutations: m.Permutations, MinSegment: m.MinSegment, Level: m.Level}
	out := jsonTrend{Schema: TrendReportSchema, Headline: t.headline(), Runs: len(a.Runs), Repository: safeURL(t.Repository), Method: method,
		ChangePoints: []jsonChangePoint{}, Series: []jsonTrendSeries{}, Configs: []jsonConfiguration{}, Notes: t.trendNotes()}
	for _, kc := range a.ChangePoints() {
		out.ChangePoints = append(out.ChangePoints, jsonChangePoint{Endpoint: kc.Endpoint, Scenario: kc.Scenario, Metric: kc.Metric, Stat: kc.Stat,
			Fingerprint: kc.Fingerprint, Index: kc.Index, GitSHA: kc.GitSHA, CreatedAt: kc.CreatedAt.UTC(),
			StepPct: num(kc.StepPct, 1), CIPct: pair(kc.CIPct, 1), Before: num(kc.Before, 1), After: num(kc.After, 1), PValue: kc.PValue, New: kc.New})
	}
	for _, s := range a.Series {
		out.Series = append(out.Series, seriesJSON(a, s))
	}
	for _, c := range a.Configs {
		jc := jsonConfiguration{Endpoint: c.Endpoint, Scenario: c.Scenario, Fingerprints: c.Fingerprints}
		for _, r := range c.From {
			jc.From = append(jc.From, a.Runs[r].CreatedAt.UTC())
		}
		out.Configs = append(out.Configs, jc)
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func seriesJSON(a trend.Analysis, s trend.Series) jsonTrendSeries {
	js := jsonTrendSeries{Endpoint: s.Endpoint, Scenario: s.Scenario, Metric: s.Metric, Stat: s.Stat, Fingerprint: s.Fingerprint,
		Tested: s.Need == 0, Sparse: s.Sparse, Points: []jsonTrendPoint{}}
	if len(s.Points) > 0 {
		js.Level = &jsonTrendLevel{First: num(s.Level.First, 1), Current: num(s.Level.Current, 1), ChangePct: num(s.Level.ChangePct, 1), CIPct: pair(s.Level.CIPct, 1)}
	}
	for _, p := range s.Points {
		r := a.Runs[p.Run]
		js.Points = append(js.Points, jsonTrendPoint{CreatedAt: r.CreatedAt.UTC(), GitSHA: r.GitSHA, Event: r.Event, Value: p.Value, N: p.N})
	}
	return js
}
