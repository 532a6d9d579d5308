package report

import (
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// The OTLP/JSON encoding of MetricsData (opentelemetry-proto
// metrics/v1): lowerCamelCase keys, 64-bit integers as decimal strings,
// enums as numbers.
type (
	otlpDoc struct {
		ResourceMetrics []otlpResourceMetrics `json:"resourceMetrics"`
	}
	otlpResourceMetrics struct {
		Resource     otlpResource       `json:"resource"`
		ScopeMetrics []otlpScopeMetrics `json:"scopeMetrics"`
		SchemaURL    string             `json:"schemaUrl"`
	}
	otlpResource struct {
		Attributes []otlpKV `json:"attributes"`
	}
	otlpScopeMetrics struct {
		Scope     otlpScope    `json:"scope"`
		Metrics   []otlpMetric `json:"metrics"`
		SchemaURL string       `json:"schemaUrl"`
	}
	otlpScope struct {
		Name string `json:"name"`
	}
	otlpKV struct {
		Key   string    `json:"key"`
		Value otlpValue `json:"value"`
	}
	otlpValue struct {
		StringValue *string  `json:"stringValue,omitempty"`
		IntValue    string   `json:"intValue,omitempty"`
		DoubleValue *float64 `json:"doubleValue,omitempty"`
	}
	otlpMetric struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Unit        string         `json:"unit"`
		Histogram   *otlpHistogram `json:"histogram,omitempty"`
		Sum         *otlpSum       `json:"sum,omitempty"`
	}
	otlpHistogram struct {
		DataPoints             []otlpHistogramPoint `json:"dataPoints"`
		AggregationTemporality int                  `json:"aggregationTemporality"`
	}
	otlpHistogramPoint struct {
		Attributes        []otlpKV  `json:"attributes"`
		StartTimeUnixNano string    `json:"startTimeUnixNano"`
		TimeUnixNano      string    `json:"timeUnixNano"`
		Count             string    `json:"count"`
		Sum               float64   `json:"sum"`
		BucketCounts      []string  `json:"bucketCounts"`
		ExplicitBounds    []float64 `json:"explicitBounds"`
		Min               float64   `json:"min"`
		Max               float64   `json:"max"`
	}
	otlpSum struct {
		DataPoints             []otlpNumberPoint `json:"dataPoints"`
		AggregationTemporality int               `json:"aggregationTemporality"`
		IsMonotonic            bool              `json:"isMonotonic"`
	}
	otlpNumberPoint struct {
		Attributes        []otlpKV `json:"attributes"`
		StartTimeUnixNano string   `json:"startTimeUnixNano"`
		TimeUnixNano      string   `json:"timeUnixNano"`
		AsInt             string   `json:"asInt"`
	}
)

// otlpCumulative is AGGREGATION_TEMPORALITY_CUMULATIVE: each point covers
// the run, from its first request to the end of its last.
const otlpCumulative = 2

func init() {
	ReportFormats.Register(ReportFormat{Name: "otlp", EveryRequest: true, Write: func(w io.Writer, r *Report, _ RenderOptions) error { return OTLP(w, r) }})
}

// OTLP writes the current run of every (endpoint, scenario) as OTLP/JSON
// metrics (one MetricsData document, as an OTLP file exporter writes it):
// the OpenTelemetry GenAI client histograms in seconds with the
// conventions' buckets, gen_ai.client.token.usage, and
// latgate.client.requests by outcome. Each data point carries
// gen_ai.request.model, latgate.endpoint and latgate.scenario. A metric
// with no value (no successful request) is left out.
func OTLP(w io.Writer, r *Report) error {
	resAttrs, sets := otelData(r)
	var metrics []otlpMetric
	for _, m := range otelMetrics {
		h := &otlpHistogram{AggregationTemporality: otlpCumulative}
		for _, set := range sets {
			for _, p := range set.hists[m.name] {
				h.DataPoints = append(h.DataPoints, otlpHistogramPointOf(p, m.bounds, set))
			}
		}
		if len(h.DataPoints) > 0 {
			metrics = append(metrics, otlpMetric{Name: m.name, Description: m.help, Unit: m.unit, Histogram: h})
		}
	}
	sum := &otlpSum{AggregationTemporality: otlpCumulative, IsMonotonic: true}
	for _, set := range sets {
		for _, c := range set.counts {
			sum.DataPoints = append(sum.DataPoints, otlpNumberPoint{Attributes: otlpAttrs(c.attrs),
				StartTimeUnixNano: unixNano(set.start), TimeUnixNano: unixNano(set.end), AsInt: strconv.FormatInt(c.n, 10)})
		}
	}
	if len(sum.DataPoints) > 0 {
		metrics = append(metrics, otlpMetric{Name: otelRequests.name, Description: otelRequests.help, Unit: otelRequests.unit, Sum: sum})
	}
	schema := "https://opentelemetry.io/schemas/" + otelSemconv
	doc := otlpDoc{ResourceMetrics: []otlpResourceMetrics{{
		Resource:     otlpResource{Attributes: otlpAttrs(resAttrs)},
		ScopeMetrics: []otlpScopeMetrics{{Scope: otlpScope{Name: otelScope}, Metrics: metrics, SchemaURL: schema}},
		SchemaURL:    schema,
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func otlpHistogramPointOf(h otelHistogram, bounds []float64, set otelSet) otlpHistogramPoint {
	counts := make([]string, len(h.counts))
	for i, c := range h.counts {
		counts[i] = strconv.FormatUint(c, 10)
	}
	return otlpHistogramPoint{Attributes: otlpAttrs(h.attrs), StartTimeUnixNano: unixNano(set.start), TimeUnixNano: unixNano(set.end),
		Count: strconv.FormatUint(h.count, 10), Sum: h.sum, BucketCounts: counts, ExplicitBounds: bounds, Min: h.min, Max: h.max}
}

func otlpAttrs(attrs []otelAttr) []otlpKV {
	out := make([]otlpKV, len(attrs))
	for i, a := range attrs {
		switch {
		case a.isInt:
			out[i] = otlpKV{Key: a.key, Value: otlpValue{IntValue: strconv.FormatInt(a.num, 10)}}
			continue
		case a.isFloat:
			f := a.f
			out[i] = otlpKV{Key: a.key, Value: otlpValue{DoubleValue: &f}}
			continue
		}
		s := a.str
		out[i] = otlpKV{Key: a.key, Value: otlpValue{StringValue: &s}}
	}
	return out
}

// unixNano is a time as OTLP writes it; 0 (unknown) for the zero time.
func unixNano(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return strconv.FormatInt(t.UnixNano(), 10)
}
