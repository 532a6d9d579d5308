package report

import (
	"math"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// The OTLP and OpenMetrics exports carry the current run of each
// (endpoint, scenario) as the metrics of the OpenTelemetry semantic
// conventions for generative AI clients (docs/formats.md names the
// version): histograms in seconds (tokens for the usage), with the bucket
// boundaries the conventions give, and a count of requests by outcome.

// otelSemconv is the version of the semantic conventions the names,
// units and buckets follow.
const otelSemconv = "1.41.0"

// otelScope names the instrumentation that produced the metrics.
const otelScope = "github.com/latgate/latgate"

// The conventions' explicit bucket boundaries: seconds for the times,
// tokens for the usage.
var (
	otelTimeBounds  = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	otelTokenBounds = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
)

// otelMetric is one histogram the exports write, and the latgate metric
// (vocab) it is drawn from.
type otelMetric struct {
	name, unit, help string
	promName         string // the OpenMetrics family (units as suffix)
	promUnit         string
	bounds           []float64
	from             vocab.Metric // "" for the token usage
}

// otelMetrics are the conventions' client metrics, in the order written.
// time_to_first_chunk is latgate's ttft (the first chunk that carries
// output; a role-only first chunk is first_event_ms, which dashboards do
// not read as the time to first token); time_per_output_chunk is each gap
// of itl_ms.
var otelMetrics = []otelMetric{
	{"gen_ai.client.operation.duration", "s", "GenAI operation duration.", "gen_ai_client_operation_duration_seconds", "seconds", otelTimeBounds, vocab.Total},
	{"gen_ai.client.operation.time_to_first_chunk", "s", "Time to receive the first chunk, measured from when the client issues the generation request to when the first chunk is received in the response stream.", "gen_ai_client_operation_time_to_first_chunk_seconds", "seconds", otelTimeBounds, vocab.TTFT},
	{"gen_ai.client.operation.time_per_output_chunk", "s", "Time per output chunk, recorded for each chunk received after the first one, measured as the time elapsed from the end of the previous chunk to the end of the current chunk.", "gen_ai_client_operation_time_per_output_chunk_seconds", "seconds", otelTimeBounds, vocab.ITL},
	{"gen_ai.client.token.usage", "{token}", "Number of input and output tokens used.", "gen_ai_client_token_usage", "", otelTokenBounds, ""},
}

// otelRequests counts the requests of a run by outcome (error.type on the
// failed ones): the error rate, which the conventions' histograms alone
// cannot give for requests that failed before any time was measured.
var otelRequests = struct{ name, unit, help, promName string }{
	"latgate.client.requests", "{request}", "Requests sent, by outcome (error.type on failed ones).", "latgate_client_requests",
}

// otelAttr is an attribute: a string, an int when isInt, a double when
// isFloat.
type otelAttr struct {
	key, str       string
	num            int64
	f              float64
	isInt, isFloat bool
}

// otelHistogram is one histogram data point: explicit buckets (upper
// bound inclusive), count, sum, min and max.
type otelHistogram struct {
	attrs         []otelAttr
	counts        []uint64 // len(bounds)+1
	count         uint64
	sum, min, max float64
}

func newOtelHistogram(bounds []float64, attrs []otelAttr, values []float64) otelHistogram {
	h := otelHistogram{attrs: attrs, counts: make([]uint64, len(bounds)+1), min: math.Inf(1), max: math.Inf(-1)}
	for _, v := range values {
		h.counts[sort.SearchFloat64s(bounds, v)]++
		h.count++
		h.sum += v
		h.min, h.max = math.Min(h.min, v), math.Max(h.max, v)
	}
	return h
}

// otelCount is a number of requests with the attributes of its outcome.
type otelCount struct {
	attrs []otelAttr
	n     int64
}

// otelSet is what the exports carry of one (endpoint, scenario).
type otelSet struct {
	start, end time.Time
	hists      map[string][]otelHistogram // by otelMetric.name
	counts     []otelCount
}

// otelData is the resource's attributes and one set per scenario measured
// now (its current run).
func otelData(r *Report) ([]otelAttr, []otelSet) {
	var sets []otelSet
	for _, s := range r.Scenarios {
		if s.CurrentRun != nil {
			sets = append(sets, otelSetOf(s, r.Provenance.HeadCreated))
		}
	}
	return otelResource(r.Provenance), sets
}

// otelResource is the resource's attributes: latgate, and the commit, ref
// and region measured when recorded.
func otelResource(p Provenance) []otelAttr {
	res := []otelAttr{{key: "service.name", str: "latgate"}}
	for _, a := range []otelAttr{{key: "vcs.ref.head.revision", str: p.HeadSHA}, {key: "vcs.ref.head.name", str: p.HeadRef}, {key: "cloud.region", str: p.Region}} {
		if a.str != "" {
			res = append(res, a)
		}
	}
	return res
}

// otelSetOf draws the histograms and counts of a scenario's current run.
func otelSetOf(s Scenario, created time.Time) otelSet {
	run := s.CurrentRun
	base := otelBaseAttrs(s)
	with := func(extra ...otelAttr) []otelAttr { return append(append([]otelAttr(nil), base...), extra...) }
	values := map[vocab.Metric][]float64{}
	failedTotals := map[string][]float64{}
	var in, out []float64
	failed := map[string]int64{}
	var ok int64
	span := 0.0
	for _, q := range run.Requests {
		if q.TotalMs != nil {
			span = max(span, q.SentMs+*q.TotalMs)
		}
		if !q.OK {
			et := otelErrorType(q)
			failed[et]++
			if q.TotalMs != nil {
				failedTotals[et] = append(failedTotals[et], *q.TotalMs/1000)
			}
			continue
		}
		ok++
		values[vocab.Total] = append(values[vocab.Total], *q.TotalMs/1000)
		values[vocab.TTFT] = append(values[vocab.TTFT], *q.TTFTMs/1000)
		for _, g := range q.ITLMs {
			values[vocab.ITL] = append(values[vocab.ITL], g/1000)
		}
		if q.PromptTokens > 0 {
			in = append(in, float64(q.PromptTokens))
		}
		out = append(out, float64(q.OutputTokens))
	}
	set := otelSet{end: created, start: created, hists: map[string][]otelHistogram{}}
	if !created.IsZero() {
		set.start = created.Add(-time.Duration(span * float64(time.Millisecond)))
	}
	for _, m := range otelMetrics {
		var hs []otelHistogram
		switch {
		case m.from == "":
			for _, t := range []struct {
				kind string
				v    []float64
			}{{"input", in}, {"output", out}} {
				if len(t.v) > 0 {
					hs = append(hs, newOtelHistogram(m.bounds, with(otelAttr{key: "gen_ai.token.type", str: t.kind}), t.v))
				}
			}
		case len(values[m.from]) > 0:
			hs = append(hs, newOtelHistogram(m.bounds, with(), values[m.from]))
		}
		if m.from == vocab.Total {
			for _, et := range sortedKeys(failedTotals) {
				hs = append(hs, newOtelHistogram(m.bounds, with(otelAttr{key: "error.type", str: et}), failedTotals[et]))
			}
		}
		set.hists[m.name] = hs
	}
	if ok > 0 {
		set.counts = append(set.counts, otelCount{with(), ok})
	}
	for _, et := range sortedKeys(failed) {
		set.counts = append(set.counts, otelCount{with(otelAttr{key: "error.type", str: et}), failed[et]})
	}
	return set
}

// otelBaseAttrs are a scenario's attributes: the conventions' operation,
// provider (when the host tells it), model and server, and latgate's
// endpoint and scenario (which tell the sets apart).
func otelBaseAttrs(s Scenario) []otelAttr {
	run := s.CurrentRun
	parts := run.FingerprintParts
	attrs := []otelAttr{{key: "gen_ai.operation.name", str: otelOperation(parts["api"])}}
	if p := otelProvider(parts["api"], parts["host"]); p != "" {
		attrs = append(attrs, otelAttr{key: "gen_ai.provider.name", str: p})
	}
	if run.Model != "" {
		attrs = append(attrs, otelAttr{key: "gen_ai.request.model", str: run.Model})
	}
	if h := parts["host"]; h != "" {
		host, port, err := net.SplitHostPort(h)
		if err != nil {
			host, port = h, ""
		}
		attrs = append(attrs, otelAttr{key: "server.address", str: host})
		if n, err := strconv.ParseInt(port, 10, 64); err == nil {
			attrs = append(attrs, otelAttr{key: "server.port", num: n, isInt: true})
		}
	}
	return append(attrs, otelAttr{key: "latgate.endpoint", str: s.Endpoint}, otelAttr{key: "latgate.scenario", str: s.Scenario})
}

// otelOperation is gen_ai.operation.name of an API (the fingerprint's api
// part: "" for the default API): its own, else the default API's.
func otelOperation(api string) string {
	if spec, ok := apis.Lookup(api); ok && spec.OTel.Operation != "" {
		return spec.OTel.Operation
	}
	return apis.Default().OTel.Operation
}

// otelProvider is gen_ai.provider.name from the API and the host; "" when
// neither tells it (an OpenAI-compatible server of your own, an imported
// run).
func otelProvider(api, host string) string {
	if spec, ok := apis.Lookup(api); ok && spec.OTel.Provider != "" {
		return spec.OTel.Provider
	}
	host, _, _ = strings.Cut(host, ":")
	for suffix, p := range map[string]string{"api.openai.com": "openai", "api.anthropic.com": "anthropic", "generativelanguage.googleapis.com": "gcp.gemini",
		"aiplatform.googleapis.com": "gcp.vertex_ai", "openai.azure.com": "azure.ai.openai", "api.groq.com": "groq", "api.mistral.ai": "mistral_ai",
		"api.deepseek.com": "deepseek", "api.x.ai": "x_ai", "api.perplexity.ai": "perplexity", "api.cohere.com": "cohere", "api.cohere.ai": "cohere"} {
		if host == suffix || strings.HasSuffix(host, "."+suffix) {
			return p
		}
	}
	return ""
}

// otelErrorType is a failed request's error.type: its HTTP status, else
// the conventions' fallback.
func otelErrorType(q results.Request) string {
	if q.Status >= 400 && q.Status <= 599 {
		return strconv.Itoa(q.Status)
	}
	return "_OTHER"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
