package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// otlpIDs are a span's ids as OTLP/JSON writes them: hex, 16 and 8 bytes.
// (protojson reads bytes as base64, so it accepts hex of a length that is
// a multiple of 4 and decodes it to other bytes: the ids are checked here.)
var otlpIDs = regexp.MustCompile(`"traceId":"[0-9a-f]{32}","spanId":"[0-9a-f]{16}",`)

// decodeTraces unmarshals OTLP/JSON traces with the official protobuf
// types (TracesData, the JSON form of an ExportTraceServiceRequest): an
// unknown field, a wrong type or a 64-bit integer not a string where one
// must be is an error; every span's ids must be hex of their length.
func decodeTraces(t *testing.T, b []byte) *tracev1.TracesData {
	t.Helper()
	var td tracev1.TracesData
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(b, &td); err != nil {
		t.Fatalf("not OTLP/JSON TracesData: %v\n%.2000s", err, b)
	}
	n := 0
	for _, rs := range td.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			n += len(ss.Spans)
		}
	}
	if ids := len(otlpIDs.FindAll(b, -1)); ids != n || bytes.Count(b, []byte(`"traceId"`)) != n {
		t.Fatalf("%d of %d spans have hex ids of 16 and 8 bytes", ids, n)
	}
	return &td
}

// attrsOf is a span's attributes by key, each value as OTLP typed it.
func attrsOf(kvs []*commonv1.KeyValue) map[string]*commonv1.AnyValue {
	m := map[string]*commonv1.AnyValue{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// TestOTLPTraces holds every suite's export to the conventions and to its
// runs: one CLIENT span "chat gpt-test" per request, or per model call of
// a session; unique ids; input and output tokens the request's; a failed
// request's error.type and status; a session's calls in one trace and one
// conversation, each session its own.
func TestOTLPTraces(t *testing.T) {
	t.Parallel()
	for _, i := range []int{1, 4, 5, 6} { // fail, hostile, agent, aisdk
		sc := suiteCases[i]
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			var b bytes.Buffer
			if err := OTLPTraces(&b, rep); err != nil {
				t.Fatal(err)
			}
			td := decodeTraces(t, b.Bytes())
			if len(td.ResourceSpans) != 1 || len(td.ResourceSpans[0].ScopeSpans) != 1 {
				t.Fatalf("%d resources, want 1 with one scope", len(td.ResourceSpans))
			}
			ss := td.ResourceSpans[0].ScopeSpans[0]
			if ss.Scope.Name != otelScope || !strings.HasSuffix(ss.SchemaUrl, "/"+otelSemconv) {
				t.Errorf("scope %v %q", ss.Scope, ss.SchemaUrl)
			}
			checkSpans(t, ss.Spans, rep)
		})
	}
}

func checkSpans(t *testing.T, spans []*tracev1.Span, rep *Report) {
	t.Helper()
	want, ids := 0, map[string]bool{}
	for _, s := range rep.Scenarios {
		for _, q := range s.CurrentRun.Requests {
			want += max(len(q.Steps), 1)
		}
	}
	if len(spans) != want {
		t.Fatalf("%d spans, want %d", len(spans), want)
	}
	convTrace := map[string]string{}
	for _, sp := range spans {
		a := attrsOf(sp.Attributes)
		if sp.Name != "chat gpt-test" || sp.Kind != tracev1.Span_SPAN_KIND_CLIENT ||
			sp.EndTimeUnixNano < sp.StartTimeUnixNano || a["gen_ai.operation.name"].GetStringValue() != "chat" || a["gen_ai.request.model"].GetStringValue() != "gpt-test" {
			t.Fatalf("span %v", sp)
		}
		if ids[string(sp.SpanId)] {
			t.Fatalf("span id %x twice", sp.SpanId)
		}
		ids[string(sp.SpanId)] = true
		if _, failed := a["error.type"]; failed != (sp.Status.GetCode() == tracev1.Status_STATUS_CODE_ERROR) {
			t.Errorf("error.type %v but status %v", a["error.type"], sp.Status)
		}
		if c := a["gen_ai.conversation.id"].GetStringValue(); c != "" {
			if tr, seen := convTrace[c]; seen && tr != string(sp.TraceId) {
				t.Errorf("conversation %s spans two traces", c)
			}
			convTrace[c] = string(sp.TraceId)
		}
	}
	// The spans follow the requests in order: the tokens and errors are the
	// requests' (steps') own.
	k := 0
	for _, s := range rep.Scenarios {
		for _, q := range s.CurrentRun.Requests {
			calls := []results.Step{{PromptTokens: q.PromptTokens, OutputTokens: q.OutputTokens, Error: q.Error}}
			if len(q.Steps) > 0 {
				calls = q.Steps
			}
			for _, c := range calls {
				a := attrsOf(spans[k].Attributes)
				k++
				if in := a["gen_ai.usage.input_tokens"]; int(in.GetIntValue()) != c.PromptTokens || (in == nil) != (c.PromptTokens == 0) {
					t.Errorf("input tokens %v, want %d", in, c.PromptTokens)
				}
				if out := a["gen_ai.usage.output_tokens"]; out != nil && int(out.GetIntValue()) != c.OutputTokens {
					t.Errorf("output tokens %v, want %d", out, c.OutputTokens)
				}
				if _, failed := a["error.type"]; failed != (c.Error != "") {
					t.Errorf("error %q but error.type %v", c.Error, a["error.type"])
				}
				if (len(q.Steps) > 0) != (a["gen_ai.conversation.id"] != nil) {
					t.Errorf("a session's calls, and only those, have a conversation: %v", a["gen_ai.conversation.id"])
				}
			}
		}
	}
	if n := len(convTrace); n > 0 && n != len(rep.Scenarios[0].CurrentRun.Requests) {
		t.Errorf("%d conversations, want one per session", n)
	}
}

// spanCase is a run of four known requests (one replayed from a trace,
// one failed, one from a second run) whose file began at started.
func spanCase(started, created time.Time) *Report {
	ms := func(v float64) *float64 { return &v }
	run := results.Run{Endpoint: "api", Scenario: "a<b>&c", Model: "gpt-4o-mini", FingerprintParts: map[string]string{"host": "api.openai.com"},
		Workload: &results.Workload{Strata: []int{512, 4096}},
		Requests: []results.Request{
			{OK: true, Status: 200, SentMs: 0, TTFTMs: ms(250), TTFCMs: ms(200), TotalMs: ms(1000.5), OutputTokens: 40, PromptTokens: 812, CachedTokens: 512, ReasoningTokens: 8,
				Trace: &results.TraceRef{Line: 17, Input: 800, Output: 40, Stratum: 2, Turn: 3}},
			{Status: 429, Error: "HTTP 429 Too Many Requests", Failure: vocab.HTTPStatus, SentMs: 120},
		}}
	second := results.Run{Endpoint: "api", Scenario: "later", Model: "gpt-4o-mini",
		Requests: []results.Request{{OK: true, Status: 200, SentMs: 5, TTFTMs: ms(10), TotalMs: ms(20), OutputTokens: 2}}}
	rep := &Report{Scenarios: []Scenario{{Endpoint: "api", Scenario: run.Scenario, CurrentRun: &run}, {Endpoint: "api", Scenario: "later", CurrentRun: &second}}}
	rep.Provenance.HeadStarted, rep.Provenance.HeadCreated = started, created
	return rep
}

// TestOTLPTracesValues checks one known export: absolute times from the
// file's started_at and each request's sent_ms (the second run where the
// first ended), the conventions' attributes with their OTLP types, the
// replayed trace entry, the failure, and text left as JSON needs it.
func TestOTLPTracesValues(t *testing.T) {
	t.Parallel()
	started := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	if err := OTLPTraces(&b, spanCase(started, started.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"a<b>&c"`) {
		t.Errorf("the scenario's name was escaped beyond JSON:\n%s", b.String())
	}
	td := decodeTraces(t, b.Bytes())
	if o := attrsOf(td.ResourceSpans[0].Resource.Attributes)["latgate.time_origin"].GetStringValue(); o != "started_at" {
		t.Errorf("time origin %q", o)
	}
	spans := td.ResourceSpans[0].ScopeSpans[0].Spans
	if len(spans) != 3 {
		t.Fatalf("%d spans", len(spans))
	}
	at := func(ms float64) uint64 { return uint64(started.Add(msDuration(ms)).UnixNano()) }
	ok, failed, later := spans[0], spans[1], spans[2]
	if ok.StartTimeUnixNano != at(0) || ok.EndTimeUnixNano != at(1000.5) || failed.StartTimeUnixNano != at(120) || failed.EndTimeUnixNano != at(120) {
		t.Errorf("times %d–%d, %d–%d", ok.StartTimeUnixNano, ok.EndTimeUnixNano, failed.StartTimeUnixNano, failed.EndTimeUnixNano)
	}
	if later.StartTimeUnixNano != at(1000.5+5) || later.EndTimeUnixNano != at(1000.5+25) {
		t.Errorf("the second run begins where the first ended: %d, want %d", later.StartTimeUnixNano, at(1005.5))
	}
	a := attrsOf(ok.Attributes)
	for key, want := range map[string]int64{"gen_ai.usage.input_tokens": 812, "gen_ai.usage.output_tokens": 40, "gen_ai.usage.cache_read.input_tokens": 512,
		"gen_ai.usage.reasoning.output_tokens": 8, "latgate.trace.line": 17, "latgate.trace.input_tokens": 800, "latgate.trace.stratum": 2, "latgate.trace.turn": 3, "latgate.request": 1} {
		if v, isInt := a[key].GetValue().(*commonv1.AnyValue_IntValue); !isInt || v.IntValue != want {
			t.Errorf("%s = %v, want int %d", key, a[key], want)
		}
	}
	if a["gen_ai.response.time_to_first_chunk"].GetDoubleValue() != 0.25 || a["latgate.ttft_ms"].GetDoubleValue() != 250 || a["latgate.ttfc_ms"].GetDoubleValue() != 200 {
		t.Errorf("first chunk %v, ttft %v, ttfc %v", a["gen_ai.response.time_to_first_chunk"], a["latgate.ttft_ms"], a["latgate.ttfc_ms"])
	}
	if a["gen_ai.provider.name"].GetStringValue() != "openai" || a["server.address"].GetStringValue() != "api.openai.com" || ok.Status != nil || a["error.type"] != nil {
		t.Errorf("attributes %v, status %v", a, ok.Status)
	}
	fa := attrsOf(failed.Attributes)
	if fa["error.type"].GetStringValue() != "429" || failed.Status.GetCode() != tracev1.Status_STATUS_CODE_ERROR || failed.Status.Message != "HTTP 429 Too Many Requests" ||
		fa["gen_ai.usage.output_tokens"] != nil || fa["gen_ai.response.time_to_first_chunk"] != nil {
		t.Errorf("failed: %v, status %v", fa, failed.Status)
	}
	if string(ok.TraceId) == string(failed.TraceId) {
		t.Error("two requests in one trace")
	}
	if p := ProvenanceOf(nil, &results.File{StartedAt: &started}); !p.HeadStarted.Equal(started) {
		t.Errorf("a file's started_at is not the head's start: %v", p.HeadStarted)
	}
}

// TestOTLPTracesOrigin: without started_at the last run ends at the
// file's created_at; without either, the times are offsets from the epoch
// and the resource says so. The same report gives the same ids.
func TestOTLPTracesOrigin(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	render := func(rep *Report) (*tracev1.TracesData, string) {
		var b bytes.Buffer
		if err := OTLPTraces(&b, rep); err != nil {
			t.Fatal(err)
		}
		return decodeTraces(t, b.Bytes()), b.String()
	}
	td, first := render(spanCase(time.Time{}, created))
	spans := td.ResourceSpans[0].ScopeSpans[0].Spans
	if end := spans[2].EndTimeUnixNano; end != uint64(created.UnixNano()) {
		t.Errorf("last span ends %d, want created_at %d", end, created.UnixNano())
	}
	if o := attrsOf(td.ResourceSpans[0].Resource.Attributes)["latgate.time_origin"].GetStringValue(); o != "created_at" {
		t.Errorf("origin %q", o)
	}
	if _, again := render(spanCase(time.Time{}, created)); again != first {
		t.Error("the same report rendered twice differs")
	}
	td, _ = render(spanCase(time.Time{}, time.Time{}))
	spans = td.ResourceSpans[0].ScopeSpans[0].Spans
	if o := attrsOf(td.ResourceSpans[0].Resource.Attributes)["latgate.time_origin"].GetStringValue(); o != "none" || spans[1].StartTimeUnixNano != 120e6 {
		t.Errorf("origin %q, failed request at %d ns, want 120 ms from the epoch", o, spans[1].StartTimeUnixNano)
	}
}

// TestGoldenOTLPTraces: a few requests of a run, a failure, and two
// agent sessions.
func TestGoldenOTLPTraces(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[1])
	agent := buildCase(t, suiteCases[5])
	rep.Scenarios = []Scenario{rep.Scenarios[0], agent.Scenarios[0]}
	rep.Provenance.HeadStarted = time.Date(2026, 11, 30, 10, 20, 0, 0, time.UTC)
	for k, n := range []int{4, 2} {
		run := *rep.Scenarios[k].CurrentRun
		run.Requests = run.Requests[:n]
		for i := range run.Requests {
			run.Requests[i].SentMs = 250 * float64(i)
		}
		rep.Scenarios[k].CurrentRun = &run
	}
	var b bytes.Buffer
	if err := OTLPTraces(&b, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "export.otlp-traces.json", b.Bytes())
}
