package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/latgate/latgate/results"
)

// exportMetrics are the per-request latencies the exports carry.
var exportMetrics = []struct {
	name string
	get  func(q *results.Request) *float64
}{
	{"ttft", func(q *results.Request) *float64 { return q.TTFTMs }},
	{"ttfc", func(q *results.Request) *float64 { return q.TTFCMs }},
	{"tpot", func(q *results.Request) *float64 { return q.TPOTMs }},
	{"total", func(q *results.Request) *float64 { return q.TotalMs }},
	{"perceived", func(q *results.Request) *float64 { return q.PerceivedMs }},
}

// benchName keeps a name usable inside a Go benchmark name: no space, no
// slash, no equals sign, no control character.
func benchName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '/' || r == '=' {
			return '_'
		}
		return r
	}, s)
	if s == "" {
		return "_"
	}
	return s
}

func init() {
	ReportFormats.Register(ReportFormat{Name: "benchstat", EveryRequest: true, Write: func(w io.Writer, r *Report, _ RenderOptions) error { return Benchstat(w, r) }})
	ReportFormats.Register(ReportFormat{Name: "bmf", Write: func(w io.Writer, r *Report, _ RenderOptions) error { return BMF(w, r) }})
	ReportFormats.Register(ReportFormat{Name: "csv", EveryRequest: true, Write: func(w io.Writer, r *Report, _ RenderOptions) error { return CSV(w, r) }})
}

// Benchstat writes every successful request in the Go benchmark format
// that benchstat reads: one line per request,
//
//	BenchmarkLatency/endpoint=us-east/scenario=chat 1 402.5 ttft-ms 810.2 total-ms ...
//
// after a "variant: base" or "variant: head" configuration line, so
// `benchstat -col variant FILE` compares the two sides. Failed requests
// carry no latency and are left out (their count is in a comment line).
func Benchstat(w io.Writer, r *Report) error {
	bw := &errWriter{w: w}
	bw.printf("# latgate per-request latencies in milliseconds; compare with: benchstat -col variant FILE\n")
	for _, side := range []struct {
		name string
		run  func(s Scenario) *results.Run
	}{{"base", func(s Scenario) *results.Run { return s.BaseRun }}, {"head", func(s Scenario) *results.Run { return s.CurrentRun }}} {
		wrote := false
		for _, s := range r.Scenarios {
			run := side.run(s)
			if run == nil {
				continue
			}
			if !wrote {
				bw.printf("variant: %s\n", side.name)
				wrote = true
			}
			name := "BenchmarkLatency/endpoint=" + benchName(s.Endpoint) + "/scenario=" + benchName(s.Scenario)
			failed := 0
			for i := range run.Requests {
				q := &run.Requests[i]
				if !q.OK {
					failed++
					continue
				}
				var b strings.Builder
				b.WriteString(name + " 1")
				for _, m := range exportMetrics {
					if v := m.get(q); v != nil && !math.IsNaN(*v) {
						fmt.Fprintf(&b, " %s %s-ms", strconv.FormatFloat(round3(*v), 'f', -1, 64), m.name)
					}
				}
				bw.printf("%s\n", b.String())
			}
			if failed > 0 {
				bw.printf("# %s: %d of %d requests failed\n", name, failed, len(run.Requests))
			}
		}
	}
	return bw.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}

// bmfMetric is one Bencher metric: a value and, when known, its interval.
type bmfMetric struct {
	Value      float64  `json:"value"`
	LowerValue *float64 `json:"lower_value,omitempty"`
	UpperValue *float64 `json:"upper_value,omitempty"`
}

// BMF writes the current statistics in Bencher Metric Format JSON: one
// benchmark per (endpoint, scenario) named "endpoint/scenario", one measure
// per statistic ("ttft-p95", in milliseconds, with the distribution-free
// confidence interval of the quantile as lower_value and upper_value when
// there is one) and "error-rate" in percent. A statistic that was not
// measured is left out. A capacity search's benchmark holds the head's
// "capacity" (users or requests per second, its interval as lower_value
// and upper_value) and its "goodput-rps" and "goodput-tps", and with a
// price its "cost-per-mtok" (USD per 1M output tokens within the SLO, its
// interval as lower_value and upper_value); a cut search or one that
// found none is left out.
func BMF(w io.Writer, r *Report) error {
	out := map[string]map[string]bmfMetric{}
	for _, s := range r.Scenarios {
		key := s.Endpoint + "/" + s.Scenario
		ms := map[string]bmfMetric{}
		for _, c := range s.Checks {
			if math.IsNaN(c.Current) || math.IsInf(c.Current, 0) || c.Stratum != 0 && c.Metric.IsRate() {
				continue // a rate's benchmark is the run's
			}
			if c.Metric == "errors" {
				ms["error-rate"] = bmfMetric{Value: round3(100 * c.Current)}
				continue
			}
			if c.Metric.IsRate() {
				ms[strings.ReplaceAll(string(c.Metric), "_", "-")] = bmfMetric{Value: round3(100 * c.Current)}
				continue
			}
			m := bmfMetric{Value: round3(c.Current)}
			if lo, hi := c.CurrentCI[0], c.CurrentCI[1]; !math.IsNaN(lo) && !math.IsNaN(hi) {
				lo, hi = round3(lo), round3(hi)
				m.LowerValue, m.UpperValue = &lo, &hi
			}
			k := string(c.Metric) + "-" + string(c.Stat)
			if c.Stratum != 0 {
				k += fmt.Sprintf("-stratum-%d", c.Stratum) // a stratum's statistic, beside the run's
			}
			ms[k] = m
		}
		if len(ms) > 0 {
			out[key] = ms
		}
	}
	for _, c := range r.Capacity {
		// The head's capacity with its interval (no lower end when no
		// level was shown to hold), and its goodput; a cut search has
		// none.
		h := c.Head.Result
		if math.IsNaN(h.Capacity) || !h.Complete() {
			continue
		}
		sh := float64(max(h.Shards, 1))
		c0, hi := round3(h.Capacity*sh), round3(h.Upper*sh)
		capm := bmfMetric{Value: c0, UpperValue: &hi}
		if lo := round3(h.Lower * sh); !math.IsNaN(lo) {
			capm.LowerValue = &lo
		}
		ms := map[string]bmfMetric{"capacity": capm,
			"goodput-rps": {Value: round3(h.GoodRPS)}, "goodput-tps": {Value: round3(h.GoodTPS)}}
		costBMF(ms, h)
		out[c.Endpoint+"/"+c.Scenario] = ms
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// CSVHeader is the header row of the CSV export.
var CSVHeader = []string{"side", "endpoint", "scenario", "request", "block", "ok", "status", "error",
	"ttft_ms", "ttfc_ms", "tpot_ms", "total_ms", "perceived_ms", "ttfb_ms", "max_stall_ms",
	"dns_ms", "connect_ms", "tls_ms", "reused", "output_tokens", "prompt_tokens", "cached_tokens"}

// csvText keeps a spreadsheet from reading a cell as a formula.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSV writes one row per request, both sides ("base", "current"), in the
// order the requests were sent (request numbers from 1). Missing times are
// empty cells.
func CSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	opt := func(v *float64) string {
		if v == nil || math.IsNaN(*v) {
			return ""
		}
		return strconv.FormatFloat(round3(*v), 'f', -1, 64)
	}
	num := func(v float64) string { return strconv.FormatFloat(round3(v), 'f', -1, 64) }
	for _, s := range r.Scenarios {
		for _, side := range []struct {
			name string
			run  *results.Run
		}{{"base", s.BaseRun}, {"current", s.CurrentRun}} {
			if side.run == nil {
				continue
			}
			for i, q := range side.run.Requests {
				rec := []string{side.name, csvText(s.Endpoint), csvText(s.Scenario), strconv.Itoa(i + 1), strconv.Itoa(q.Block),
					strconv.FormatBool(q.OK), strconv.Itoa(q.Status), csvText(q.Error),
					opt(q.TTFTMs), opt(q.TTFCMs), opt(q.TPOTMs), opt(q.TotalMs), opt(q.PerceivedMs), opt(q.TTFBMs), opt(q.MaxStallMs),
					num(q.DNSMs), num(q.ConnectMs), num(q.TLSMs), strconv.FormatBool(q.Reused),
					strconv.Itoa(q.OutputTokens), strconv.Itoa(q.PromptTokens), strconv.Itoa(q.CachedTokens)}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
