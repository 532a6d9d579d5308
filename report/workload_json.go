package report

import (
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
)

// jsonWorkload is a scenario drawn from a trace in latgate/verdict/v1:
// its workload as the results file has it, the line the other formats
// show, and each side's requests against the trace.
type jsonWorkload struct {
	Endpoint string            `json:"endpoint"`
	Scenario string            `json:"scenario"`
	Line     string            `json:"line"`
	Workload *results.Workload `json:"workload"`
	Baseline *jsonWorkloadSide `json:"baseline,omitempty"`
	Current  *jsonWorkloadSide `json:"current"`
}

// jsonWorkloadSide is one side's requests against the trace: the token
// count's error (|prompt_tokens − input_tokens| / input_tokens, fractions,
// over the successful requests that report prompt_tokens; its median of
// the signed error says longer or shorter), the p95 of the sends' lag,
// the TTFT median of each stratum, and the prefix cache's hit rate from
// usage and by the server's counters (null where not known).
type jsonWorkloadSide struct {
	TokenErrorN      int        `json:"token_error_n"`
	TokenErrorP50    *float64   `json:"token_error_p50"`
	TokenErrorP95    *float64   `json:"token_error_p95"`
	TokenErrorSigned *float64   `json:"token_error_signed_p50"`
	LagP95Ms         *float64   `json:"lag_p95_ms"`
	StratumTTFTP50   []*float64 `json:"stratum_ttft_p50_ms"`
	CacheUsage       *float64   `json:"cache_hit_usage"`
	CacheServer      *float64   `json:"cache_hit_server"`
}

// workloadsJSON are the report's scenarios drawn from a trace.
func workloadsJSON(r *Report) []jsonWorkload {
	var out []jsonWorkload
	for _, s := range r.Scenarios {
		w := s.workloadOf()
		if w == nil {
			continue
		}
		j := jsonWorkload{Endpoint: s.Endpoint, Scenario: s.Scenario, Line: s.WorkloadLine(), Workload: w,
			Current: workloadSide(s.currentTrace(), s.Current, s.CurrentRun)}
		if s.BaseRun != s.CurrentRun {
			j.Baseline = workloadSide(s.baseTrace(), s.Base, s.BaseRun)
		}
		out = append(out, j)
	}
	return out
}

func workloadSide(t *TraceDigest, b *Breakdown, r *results.Run) *jsonWorkloadSide {
	if t == nil {
		return nil
	}
	j := &jsonWorkloadSide{TokenErrorN: t.TokenErrN, TokenErrorP50: num(t.TokenErrP50, 1), TokenErrorP95: num(t.TokenErrP95, 1),
		TokenErrorSigned: num(t.TokenErrSigned, 1), LagP95Ms: num(t.LagP95, 1), StratumTTFTP50: []*float64{}}
	for _, v := range t.StratumTTFT {
		j.StratumTTFTP50 = append(j.StratumTTFTP50, num(v, 1))
	}
	if b != nil {
		j.CacheUsage = num(b.CacheShare, 1)
	}
	if r != nil && r.ServerMetrics != nil && r.ServerMetrics.PrefixCache != nil && r.ServerMetrics.PrefixCache.Queries > 0 {
		j.CacheServer = num(r.ServerMetrics.PrefixCache.Hits/r.ServerMetrics.PrefixCache.Queries, 1)
	}
	return j
}

// inputRange is a stratum's check's range of input length in tokens
// (inclusive; from 0 for the first stratum); nil for a check of every
// request or bounds the report was not given.
func (r *Report) inputRange(c compare.Check) *[2]int {
	if c.Stratum == 0 {
		return nil
	}
	for _, s := range r.Scenarios {
		if s.Endpoint != c.Endpoint || s.Scenario != c.Scenario {
			continue
		}
		w := s.workloadOf()
		if w == nil || c.Stratum > len(w.Strata) {
			return nil
		}
		lo := 0
		if c.Stratum > 1 {
			lo = w.Strata[c.Stratum-2] + 1
		}
		return &[2]int{lo, w.Strata[c.Stratum-1]}
	}
	return nil
}
