package report

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	metricsv1 "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/latgate/latgate/results"
)

// otelCase is the failing suite (three scenarios, one with a third of its
// requests failed) with a provenance; the hostile names are held to the
// grammar in TestOpenMetrics.
func otelCase(t *testing.T) *Report {
	t.Helper()
	rep := buildCase(t, suiteCases[1])
	rep.Provenance.HeadSHA, rep.Provenance.HeadRef = "fedcba98", "refs/pull/7/merge"
	return rep
}

// decodeOTLP unmarshals OTLP/JSON with the official protobuf types: an
// unknown field, a wrong type or a malformed 64-bit string is an error.
func decodeOTLP(t *testing.T, b []byte) *metricsv1.MetricsData {
	t.Helper()
	var md metricsv1.MetricsData
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(b, &md); err != nil {
		t.Fatalf("not OTLP/JSON MetricsData: %v\n%.2000s", err, b)
	}
	return &md
}

func TestOTLPMetrics(t *testing.T) {
	for _, sc := range suiteCases[:5] {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			rep.Provenance.HeadSHA = "fedcba98"
			var b bytes.Buffer
			if err := OTLP(&b, rep); err != nil {
				t.Fatal(err)
			}
			md := decodeOTLP(t, b.Bytes())
			checkOTLP(t, md, rep)
		})
	}
}

// checkOTLP holds the export to the conventions and to the runs: names,
// units and buckets as the conventions give them, one point set per
// (endpoint, scenario), counts that add up to the runs' requests.
func checkOTLP(t *testing.T, md *metricsv1.MetricsData, rep *Report) {
	t.Helper()
	if n := len(md.ResourceMetrics); n != 1 {
		t.Fatalf("%d resources, want 1", n)
	}
	rm := md.ResourceMetrics[0]
	if res := kvMap(rm.Resource.Attributes); res["service.name"] != "latgate" || res["vcs.ref.head.revision"] != "fedcba98" {
		t.Errorf("resource %v", res)
	}
	sm := rm.ScopeMetrics[0]
	if sm.Scope.Name != otelScope || !strings.HasSuffix(sm.SchemaUrl, "/"+otelSemconv) {
		t.Errorf("scope %v %q", sm.Scope, sm.SchemaUrl)
	}
	// The conventions' names, units, buckets and descriptions (1.41.0; the
	// same in semantic-conventions-genai@004902b8).
	spec := map[string]struct {
		unit   string
		bounds []float64
		desc   string
	}{
		"gen_ai.client.operation.duration":              {"s", otelTimeBounds, "GenAI operation duration."},
		"gen_ai.client.operation.time_to_first_chunk":   {"s", otelTimeBounds, "Time to receive the first chunk, measured from when the client issues the generation request to when the first chunk is received in the response stream."},
		"gen_ai.client.operation.time_per_output_chunk": {"s", otelTimeBounds, "Time per output chunk, recorded for each chunk received after the first one, measured as the time elapsed from the end of the previous chunk to the end of the current chunk."},
		"gen_ai.client.token.usage":                     {"{token}", otelTokenBounds, "Number of input and output tokens used."},
	}
	okPerKey, allPerKey := map[string]uint64{}, map[string]int64{}
	for _, m := range sm.Metrics {
		if m.Name == otelRequests.name {
			sum := m.GetSum()
			if sum == nil || !sum.IsMonotonic || sum.AggregationTemporality != metricsv1.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
				t.Fatalf("%s: %v", m.Name, m)
			}
			for _, p := range sum.DataPoints {
				a := kvMap(p.Attributes)
				allPerKey[a["latgate.endpoint"]+"\x00"+a["latgate.scenario"]] += p.GetAsInt()
			}
			continue
		}
		want, ok := spec[m.Name]
		h := m.GetHistogram()
		if !ok || h == nil || m.Unit != want.unit || m.Description != want.desc {
			t.Fatalf("metric %q (unit %q, %q) is not one of the conventions' client histograms", m.Name, m.Unit, m.Description)
		}
		for _, p := range h.DataPoints {
			if !slices.Equal(p.ExplicitBounds, want.bounds) || len(p.BucketCounts) != len(want.bounds)+1 {
				t.Errorf("%s: bounds %v", m.Name, p.ExplicitBounds)
			}
			n := uint64(0)
			for _, c := range p.BucketCounts {
				n += c
			}
			if n != p.Count || p.Count == 0 || p.GetMin() > p.GetMax() || p.StartTimeUnixNano > p.TimeUnixNano {
				t.Errorf("%s: buckets add up to %d, count %d, min %v max %v", m.Name, n, p.Count, p.GetMin(), p.GetMax())
			}
			a := kvMap(p.Attributes)
			if a["gen_ai.operation.name"] != "chat" || a["gen_ai.request.model"] != "gpt-test" || a["latgate.endpoint"] == "" {
				t.Errorf("%s: attributes %v", m.Name, a)
			}
			if m.Name == "gen_ai.client.operation.time_to_first_chunk" {
				okPerKey[a["latgate.endpoint"]+"\x00"+a["latgate.scenario"]] += p.Count
			}
		}
	}
	for _, s := range rep.Scenarios {
		k := s.Endpoint + "\x00" + s.Scenario
		if okPerKey[k] != uint64(s.CurrentRun.OKCount()) || allPerKey[k] != int64(len(s.CurrentRun.Requests)) {
			t.Errorf("%s @ %s: ttft count %d, requests %d; want %d ok of %d", s.Scenario, s.Endpoint, okPerKey[k], allPerKey[k], s.CurrentRun.OKCount(), len(s.CurrentRun.Requests))
		}
	}
}

func kvMap(kvs []*commonv1.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		switch v := kv.Value.Value.(type) {
		case *commonv1.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonv1.AnyValue_IntValue:
			m[kv.Key] = strconv.FormatInt(v.IntValue, 10)
		}
	}
	return m
}

// TestOTLPValues checks the numbers of one known run: seconds, the
// bucket each value falls in (upper bound inclusive), tokens by type,
// failures by error.type, the provider and server from the host.
func TestOTLPValues(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	run := results.Run{Endpoint: "api", Scenario: "chat", Model: "gpt-4o-mini",
		FingerprintParts: map[string]string{"host": "api.openai.com:8443"},
		Requests: []results.Request{
			{OK: true, TTFTMs: ms(10), TotalMs: ms(640), ITLMs: []float64{20, 20.5}, OutputTokens: 3, PromptTokens: 12},
			{OK: true, TTFTMs: ms(150), TotalMs: ms(90000), ITLMs: []float64{}, OutputTokens: 1, SentMs: 100},
			{Error: "HTTP 429 Too Many Requests", Status: 429},
			{Error: "truncated: the stream ended without [DONE]", TTFTMs: ms(30), TotalMs: ms(50)},
		}}
	rep := &Report{Scenarios: []Scenario{{Endpoint: "api", Scenario: "chat", CurrentRun: &run}}}
	var b bytes.Buffer
	if err := OTLP(&b, rep); err != nil {
		t.Fatal(err)
	}
	md := decodeOTLP(t, b.Bytes())
	got := map[string][]*metricsv1.HistogramDataPoint{}
	var counts []*metricsv1.NumberDataPoint
	for _, m := range md.ResourceMetrics[0].ScopeMetrics[0].Metrics {
		if h := m.GetHistogram(); h != nil {
			got[m.Name] = h.DataPoints
		} else {
			counts = m.GetSum().DataPoints
		}
	}
	dur := got["gen_ai.client.operation.duration"]
	if len(dur) != 2 || dur[0].Count != 2 || dur[0].BucketCounts[6] != 1 || dur[0].BucketCounts[14] != 1 || math.Abs(dur[0].GetSum()-90.64) > 1e-9 {
		t.Errorf("duration %v", dur)
	}
	if a := kvMap(dur[1].Attributes); a["error.type"] != "_OTHER" || dur[1].Count != 1 {
		t.Errorf("a failed request with a duration: %v", a)
	}
	ttfc := got["gen_ai.client.operation.time_to_first_chunk"][0]
	if ttfc.BucketCounts[0] != 1 || ttfc.BucketCounts[4] != 1 || ttfc.GetMin() != 0.01 || ttfc.GetMax() != 0.15 {
		t.Errorf("ttft 10 ms is in (0, 0.01], 150 ms in (0.08, 0.16]: %v", ttfc)
	}
	if p := got["gen_ai.client.operation.time_per_output_chunk"][0]; p.Count != 2 || p.BucketCounts[1] != 1 || p.BucketCounts[2] != 1 {
		t.Errorf("gaps of 20 and 20.5 ms: %v", p)
	}
	tok := got["gen_ai.client.token.usage"]
	if len(tok) != 2 || kvMap(tok[0].Attributes)["gen_ai.token.type"] != "input" || tok[0].Count != 1 || tok[1].Count != 2 || tok[1].GetSum() != 4 {
		t.Errorf("tokens %v", tok)
	}
	a := kvMap(ttfc.Attributes)
	if a["gen_ai.provider.name"] != "openai" || a["server.address"] != "api.openai.com" || a["server.port"] != "8443" {
		t.Errorf("attributes %v", a)
	}
	outcome := map[string]int64{}
	for _, c := range counts {
		outcome[kvMap(c.Attributes)["error.type"]] += c.GetAsInt()
	}
	if outcome[""] != 2 || outcome["429"] != 1 || outcome["_OTHER"] != 1 {
		t.Errorf("requests by outcome %v", outcome)
	}
	// No provenance time: times are "unknown" (0), never before 1970.
	if dur[0].TimeUnixNano != 0 || dur[0].StartTimeUnixNano != 0 {
		t.Errorf("times %d..%d", dur[0].StartTimeUnixNano, dur[0].TimeUnixNano)
	}
}

func TestGoldenOTLP(t *testing.T) {
	var b bytes.Buffer
	if err := OTLP(&b, otelCase(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "export.otlp.json", b.Bytes())
}

func TestGoldenOpenMetrics(t *testing.T) {
	var b bytes.Buffer
	if err := OpenMetrics(&b, otelCase(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "export.openmetrics.txt", b.Bytes())
}

func TestOpenMetrics(t *testing.T) {
	for _, sc := range suiteCases[:5] {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			var b bytes.Buffer
			if err := OpenMetrics(&b, rep); err != nil {
				t.Fatal(err)
			}
			fams, err := parseOpenMetrics(b.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			// The same numbers as OTLP: successful requests per scenario.
			for _, s := range rep.Scenarios {
				want := float64(s.CurrentRun.OKCount())
				got := 0.0
				for _, smp := range fams["gen_ai_client_operation_time_to_first_chunk_seconds"].samples {
					if smp.name == "gen_ai_client_operation_time_to_first_chunk_seconds_count" && smp.labels["latgate_scenario"] == s.Scenario && smp.labels["latgate_endpoint"] == s.Endpoint {
						got += smp.value
					}
				}
				if got != want {
					t.Errorf("%s @ %s: ttft _count %v, want %v", s.Scenario, s.Endpoint, got, want)
				}
			}
			if f := fams["gen_ai_client_operation_duration_seconds"]; f.typ != "histogram" || f.unit != "seconds" {
				t.Errorf("duration family %+v", f)
			}
		})
	}
}

func TestOpenMetricsCheckerRejects(t *testing.T) {
	good := "# TYPE a_seconds histogram\n# UNIT a_seconds seconds\na_seconds_bucket{le=\"1.0\"} 1\na_seconds_bucket{le=\"+Inf\"} 2\na_seconds_count 2\na_seconds_sum 3.5\n# EOF\n"
	for name, bad := range map[string]string{
		"no EOF":                strings.TrimSuffix(good, "# EOF\n"),
		"text after EOF":        good + "a_count 2\n",
		"no +Inf bucket":        strings.Replace(good, `a_seconds_bucket{le="+Inf"} 2`+"\n", "", 1),
		"count is not +Inf":     strings.Replace(good, "a_seconds_count 2", "a_seconds_count 3", 1),
		"buckets decrease":      strings.Replace(good, `le="+Inf"} 2`, `le="+Inf"} 0`, 1),
		"unit not a suffix":     strings.Replace(good, "# UNIT a_seconds seconds", "# UNIT a_seconds bytes", 1),
		"a dot in a name":       strings.ReplaceAll(good, "a_seconds", "a.seconds"),
		"unescaped quote":       strings.Replace(good, `le="1.0"`, `le="1.0",x="a"b"`, 1),
		"a family interleaved":  strings.Replace(good, "a_seconds_sum 3.5\n", "a_seconds_sum 3.5\n# TYPE b counter\nb_total 1\n# TYPE a_seconds histogram\n", 1),
		"counter without total": "# TYPE b counter\nb 1\n# EOF\n",
		"duplicate label":       strings.Replace(good, `a_seconds_count 2`, `a_seconds_count{x="1",x="2"} 2`, 1),
		"value not a number":    strings.Replace(good, "a_seconds_sum 3.5", "a_seconds_sum three", 1),
		"blank line":            strings.Replace(good, "a_seconds_count 2\n", "a_seconds_count 2\n\n", 1),
		"le not canonical":      strings.Replace(good, `le="1.0"`, `le="1"`, 1),
	} {
		if _, err := parseOpenMetrics(bad); err == nil {
			t.Errorf("%s: accepted:\n%s", name, bad)
		}
	}
	if _, err := parseOpenMetrics(good); err != nil {
		t.Errorf("good: %v", err)
	}
}

// The OpenMetrics checker. github.com/prometheus/common/expfmt has an
// OpenMetrics encoder but no OpenMetrics parser, and Prometheus' own
// (model/textparse) would vendor 6.5 MB for a test, so this is a strict
// check written from the OpenMetrics 1.0 specification's ABNF and its
// rules for families: descriptors before samples, one TYPE and UNIT per
// family, the unit a suffix of the name, sample names by type (counter
// _total/_created, histogram _bucket/_count/_sum/_created, info _info),
// families not interleaved, histogram buckets cumulative with canonical
// le values, +Inf last and equal to _count, _sum present, label names
// unique and values escaped, and # EOF as the last line.

type omSample struct {
	name   string
	labels map[string]string
	value  float64
}

type omFamily struct {
	typ, unit, help string
	samples         []omSample
}

var (
	omName     = `[a-zA-Z_:][a-zA-Z0-9_:]*`
	omLabel    = `[a-zA-Z_][a-zA-Z0-9_]*`
	omValue    = `(?:\\[\\"n]|[^"\\\n])*`
	omNumber   = `[+-]?(?:Inf|inf|NaN|nan|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)`
	omDescRe   = regexp.MustCompile(`^# (TYPE|UNIT|HELP) (` + omName + `) ?(.*)$`)
	omSampleRe = regexp.MustCompile(`^(` + omName + `)(\{(?:` + omLabel + `="` + omValue + `"(?:,` + omLabel + `="` + omValue + `")*)?\})? (` + omNumber + `)( [0-9]+(?:\.[0-9]+)?)?$`)
	omHelpRe   = regexp.MustCompile(`^(?:\\[\\n]|[^\\\n])*$`)
	omPairRe   = regexp.MustCompile(`(` + omLabel + `)="(` + omValue + `)"`)
	omTypes    = map[string][]string{"counter": {"_total", "_created"}, "gauge": {""}, "histogram": {"_bucket", "_count", "_sum", "_created"},
		"gaugehistogram": {"_bucket", "_gcount", "_gsum"}, "summary": {"", "_count", "_sum", "_created"}, "info": {"_info"}, "stateset": {""}, "unknown": {""}}
)

func parseOpenMetrics(text string) (map[string]*omFamily, error) {
	if !strings.HasSuffix(text, "# EOF\n") && !strings.HasSuffix(text, "# EOF") {
		return nil, fmt.Errorf("the exposition does not end with # EOF")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	fams := map[string]*omFamily{}
	var cur string
	done := map[string]bool{}
	for i, line := range lines[:len(lines)-1] {
		if line == "# EOF" {
			return nil, fmt.Errorf("line %d: # EOF before the end", i+1)
		}
		if m := omDescRe.FindStringSubmatch(line); m != nil {
			if err := omDescriptor(fams, &cur, done, m[1], m[2], m[3]); err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			continue
		}
		m := omSampleRe.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("line %d: neither a descriptor nor a sample: %q", i+1, line)
		}
		if err := omAddSample(fams, cur, m[1], m[2], m[3]); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	for name, f := range fams {
		if f.typ == "histogram" {
			if err := omHistogram(name, f); err != nil {
				return nil, err
			}
		}
	}
	return fams, nil
}

func omDescriptor(fams map[string]*omFamily, cur *string, done map[string]bool, kind, name, rest string) error {
	if name != *cur {
		if done[name] {
			return fmt.Errorf("family %s appears again after another family", name)
		}
		if *cur != "" {
			done[*cur] = true
		}
		*cur = name
		fams[name] = &omFamily{typ: "unknown"}
	}
	f := fams[name]
	if len(f.samples) > 0 {
		return fmt.Errorf("%s: a descriptor after its samples", name)
	}
	switch kind {
	case "TYPE":
		if _, ok := omTypes[rest]; !ok || f.typ != "unknown" && f.typ != rest {
			return fmt.Errorf("%s: type %q", name, rest)
		}
		f.typ = rest
	case "UNIT":
		if f.unit != "" || rest == "" || !strings.HasSuffix(name, "_"+rest) {
			return fmt.Errorf("%s: unit %q must be given once and end the family's name", name, rest)
		}
		f.unit = rest
	case "HELP":
		if !omHelpRe.MatchString(rest) {
			return fmt.Errorf("%s: HELP escapes only \\\\ and \\n", name)
		}
		f.help = rest
	}
	return nil
}

func omAddSample(fams map[string]*omFamily, cur, name, labels, value string) error {
	f := fams[cur]
	if f == nil {
		return fmt.Errorf("sample %s outside a family", name)
	}
	suffix, ok := strings.CutPrefix(name, cur)
	if !ok || !slices.Contains(omTypes[f.typ], suffix) {
		return fmt.Errorf("sample %s does not belong to %s family %s", name, f.typ, cur)
	}
	v, err := strconv.ParseFloat(strings.TrimPrefix(strings.ToLower(value), "+"), 64)
	if err != nil {
		return fmt.Errorf("value %q", value)
	}
	s := omSample{name: name, labels: map[string]string{}, value: v}
	for _, p := range omPairRe.FindAllStringSubmatch(labels, -1) {
		if _, dup := s.labels[p[1]]; dup {
			return fmt.Errorf("label %s twice", p[1])
		}
		s.labels[p[1]] = p[2]
	}
	if _, le := s.labels["le"]; le != (suffix == "_bucket") {
		return fmt.Errorf("%s: le belongs to buckets, and every bucket has one", name)
	}
	if f.typ == "counter" && suffix == "_total" && v < 0 {
		return fmt.Errorf("%s: a counter below 0", name)
	}
	f.samples = append(f.samples, s)
	return nil
}

// omHistogram checks each series of a histogram: buckets in increasing
// le with canonical numbers, cumulative, +Inf last equal to _count, _sum.
func omHistogram(name string, f *omFamily) error {
	type series struct {
		les      []float64
		counts   []float64
		count    float64
		hasCount bool
		hasSum   bool
	}
	all := map[string]*series{}
	for _, s := range f.samples {
		var keys []string
		for k, v := range s.labels {
			if k != "le" {
				keys = append(keys, k+"="+v)
			}
		}
		slices.Sort(keys)
		key := strings.Join(keys, ",")
		if all[key] == nil {
			all[key] = &series{}
		}
		sr := all[key]
		switch strings.TrimPrefix(s.name, name) {
		case "_bucket":
			le := s.labels["le"]
			v, err := strconv.ParseFloat(le, 64)
			if err != nil || le != "+Inf" && (!strings.Contains(le, ".") && !strings.Contains(le, "e")) {
				return fmt.Errorf("%s{%s}: le %q is not a canonical number", name, key, le)
			}
			if n := len(sr.les); n > 0 && (v <= sr.les[n-1] || s.value < sr.counts[n-1]) {
				return fmt.Errorf("%s{%s}: buckets not increasing at le=%s", name, key, le)
			}
			sr.les, sr.counts = append(sr.les, v), append(sr.counts, s.value)
		case "_count":
			sr.count, sr.hasCount = s.value, true
		case "_sum":
			sr.hasSum = true
		}
	}
	for key, sr := range all {
		n := len(sr.les)
		if n == 0 || !math.IsInf(sr.les[n-1], 1) || !sr.hasCount || !sr.hasSum || sr.counts[n-1] != sr.count {
			return fmt.Errorf("%s{%s}: a histogram needs buckets up to +Inf, _count equal to the +Inf bucket, and _sum", name, key)
		}
	}
	return nil
}
