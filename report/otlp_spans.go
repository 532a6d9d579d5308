package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/latgate/latgate/results"
)

// The OTLP/JSON encoding of an ExportTraceServiceRequest (opentelemetry-
// proto trace/v1, the same document as TracesData): lowerCamelCase keys,
// 64-bit integers as decimal strings, trace and span ids in hex, enums as
// numbers.
type (
	otlpSpan struct {
		TraceID           string      `json:"traceId"`
		SpanID            string      `json:"spanId"`
		Name              string      `json:"name"`
		Kind              int         `json:"kind"`
		StartTimeUnixNano string      `json:"startTimeUnixNano"`
		EndTimeUnixNano   string      `json:"endTimeUnixNano"`
		Attributes        []otlpKV    `json:"attributes"`
		Status            *otlpStatus `json:"status,omitempty"`
	}
	otlpStatus struct {
		Message string `json:"message,omitempty"`
		Code    int    `json:"code"`
	}
)

const (
	otlpSpanKindClient = 3 // SPAN_KIND_CLIENT
	otlpStatusError    = 2 // STATUS_CODE_ERROR
)

// Where the spans' absolute times come from (the resource's
// latgate.time_origin): the results file's started_at, its created_at, or
// nothing (times from the Unix epoch, each run's requests still at their
// offsets from one another).
const (
	spanOriginStarted = "started_at"
	spanOriginCreated = "created_at"
	spanOriginNone    = "none"
)

func init() {
	ReportFormats.Register(ReportFormat{Name: "otlp-traces", EveryRequest: true, Write: func(w io.Writer, r *Report, _ RenderOptions) error { return OTLPTraces(w, r) }})
}

// OTLPTraces writes the current run of every (endpoint, scenario) as
// OTLP/JSON traces (one ExportTraceServiceRequest document): a CLIENT
// span "{operation} {model}" per measured request, or per model call of a
// session (its steps, one trace and one gen_ai.conversation.id), with the
// GenAI conventions' attributes and latgate's own under latgate.*. It is
// written one span at a time, one span a line, so its memory does not
// grow with the runs.
func OTLPTraces(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	origins, how := spanOrigins(r)
	resAttrs, err := marshalPlain(otlpAttrs(append(otelResource(r.Provenance), otelAttr{key: "latgate.time_origin", str: how})))
	if err != nil {
		return err
	}
	schema := strconv.Quote("https://opentelemetry.io/schemas/" + otelSemconv)
	fmt.Fprintf(bw, `{"resourceSpans":[{"resource":{"attributes":%s},"scopeSpans":[{"scope":{"name":%q},"spans":[`, resAttrs, otelScope)
	sep := "\n"
	emit := func(s otlpSpan) error {
		b, err := marshalPlain(s)
		if err != nil {
			return err
		}
		bw.WriteString(sep)
		bw.Write(b)
		sep = ",\n"
		return nil
	}
	for k, s := range r.Scenarios {
		if s.CurrentRun == nil {
			continue
		}
		sr := spanRunOf(s, r.Provenance, origins[k])
		for i, q := range s.CurrentRun.Requests {
			if err := sr.spans(i, q, emit); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(bw, "\n],\"schemaUrl\":%s}],\"schemaUrl\":%s}]}\n", schema, schema)
	return bw.Flush()
}

// marshalPlain is v as JSON without HTML escaping (a span's text is
// escaped as JSON requires, and no more).
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// spanOrigins is when each scenario's current run began, and where that
// was read. A request's sent_ms counts from its run's start, and a
// results file records when its measurement began (started_at) but not
// when each run did: the runs are laid end to end from started_at, each
// beginning where the one before it ended (its last request's end), so
// a run's own times are exact relative to one another and its start is
// the earliest it can have been. Without started_at the last run ends at
// created_at (when the file was written); without either, at the epoch.
func spanOrigins(r *Report) ([]time.Time, string) {
	extents := make([]time.Duration, len(r.Scenarios))
	var sum time.Duration
	for k, s := range r.Scenarios {
		if s.CurrentRun == nil {
			continue
		}
		end := 0.0
		for _, q := range s.CurrentRun.Requests {
			end = max(end, q.SentMs+deref(q.TotalMs))
		}
		extents[k] = msDuration(end)
		sum += extents[k]
	}
	p := r.Provenance
	o, how := time.Unix(0, 0), spanOriginNone
	switch {
	case !p.HeadStarted.IsZero():
		o, how = p.HeadStarted, spanOriginStarted
	case !p.HeadCreated.IsZero():
		o, how = p.HeadCreated.Add(-sum), spanOriginCreated
	}
	origins := make([]time.Time, len(r.Scenarios))
	for k := range r.Scenarios {
		origins[k] = o
		o = o.Add(extents[k])
	}
	return origins, how
}

func deref(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// msDuration is milliseconds as a Duration, to the nanosecond.
func msDuration(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}

// spanRun is what the spans of one run share: the run's attributes, the
// span name, what its ids are drawn from, and when it began.
type spanRun struct {
	base   []otelAttr
	name   string
	seed   string
	origin time.Time
}

func spanRunOf(s Scenario, p Provenance, origin time.Time) spanRun {
	base := otelBaseAttrs(s)
	name := otelOperation(s.CurrentRun.FingerprintParts["api"])
	if s.CurrentRun.Model != "" {
		name += " " + s.CurrentRun.Model
	}
	seed := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s", p.HeadSHA, p.HeadStarted.Format(time.RFC3339Nano), p.HeadCreated.Format(time.RFC3339Nano), s.Endpoint, s.Scenario)
	return spanRun{base: base, name: name, seed: seed, origin: origin}
}

// ids are a request's trace id and the span id of its step (0: the
// request itself), drawn from the run's seed: the same file gives the same
// ids, two files other ones.
func (sr spanRun) ids(req, step int) (string, string) {
	t := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", sr.seed, req))
	s := sha256.Sum256(fmt.Appendf(nil, "%x\x00%d", t, step))
	return hex.EncodeToString(t[:16]), hex.EncodeToString(s[:8])
}

// span is one span from start to end (ms from the run's start; a span
// without an end ends where it began).
func (sr spanRun) span(req, step int, startMs float64, totalMs *float64, attrs []otelAttr, failure string) otlpSpan {
	trace, id := sr.ids(req, step)
	start := sr.origin.Add(msDuration(startMs))
	end := start.Add(msDuration(max(deref(totalMs), 0)))
	s := otlpSpan{TraceID: trace, SpanID: id, Name: sr.name, Kind: otlpSpanKindClient,
		StartTimeUnixNano: strconv.FormatInt(start.UnixNano(), 10), EndTimeUnixNano: strconv.FormatInt(end.UnixNano(), 10),
		Attributes: otlpAttrs(attrs)}
	if failure != "" {
		s.Status = &otlpStatus{Message: failure, Code: otlpStatusError}
	}
	return s
}

// spans emits a request's spans: the request, or each model call (step)
// of a session, which share its trace and a gen_ai.conversation.id.
func (sr spanRun) spans(i int, q results.Request, emit func(otlpSpan) error) error {
	if len(q.Steps) == 0 {
		a := append(append([]otelAttr(nil), sr.base...), requestAttrs(i, q)...)
		failure := ""
		if !q.OK {
			failure = q.Error
		}
		return emit(sr.span(i, 0, q.SentMs, q.TotalMs, a, failure))
	}
	conv, _ := sr.ids(i, 0)
	for j, st := range q.Steps {
		a := append(append([]otelAttr(nil), sr.base...), otelAttr{key: "gen_ai.conversation.id", str: conv})
		if st.Error != "" {
			a = append(a, otelAttr{key: "error.type", str: "_OTHER"})
		}
		a = append(a, usageAttrs(true, st.PromptTokens, st.OutputTokens, st.CachedTokens, 0, st.TTFTMs)...)
		a = append(a, intAttr("latgate.request", i+1), intAttr("latgate.step", j+1))
		if st.Turn > 0 {
			a = append(a, intAttr("latgate.turn", st.Turn))
		}
		a = append(a, msAttrs([]msAttr{{"ttft_ms", st.TTFTMs}, {"ttfc_ms", st.TTFCMs}, {"first_tool_call_ms", st.FirstToolCallMs}})...)
		if err := emit(sr.span(i, j+1, q.SentMs+st.StartMs, st.TotalMs, a, st.Error)); err != nil {
			return err
		}
	}
	return nil
}

// requestAttrs are a single call's attributes after the run's: its error,
// usage and time to first chunk by the conventions; latgate's metrics and
// the trace entry it replayed under latgate.*.
func requestAttrs(i int, q results.Request) []otelAttr {
	var a []otelAttr
	if !q.OK {
		a = append(a, otelAttr{key: "error.type", str: otelErrorType(q)})
	}
	a = append(a, usageAttrs(q.OK, q.PromptTokens, q.OutputTokens, q.CachedTokens, q.ReasoningTokens, q.TTFTMs)...)
	a = append(a, intAttr("latgate.request", i+1))
	a = append(a, msAttrs([]msAttr{{"ttft_ms", q.TTFTMs}, {"ttfc_ms", q.TTFCMs}, {"ttfb_ms", q.TTFBMs}, {"tpot_ms", q.TPOTMs},
		{"perceived_ms", q.PerceivedMs}, {"max_stall_ms", q.MaxStallMs}, {"lag_ms", q.LagMs}})...)
	if t := q.Trace; t != nil {
		a = append(a, intAttr("latgate.trace.line", t.Line), intAttr("latgate.trace.input_tokens", t.Input), intAttr("latgate.trace.stratum", t.Stratum))
		if t.Output > 0 {
			a = append(a, intAttr("latgate.trace.output_tokens", t.Output))
		}
		if t.Turn > 0 {
			a = append(a, intAttr("latgate.trace.turn", t.Turn))
		}
	}
	return a
}

// usageAttrs are the conventions' token counts (a count the server did
// not report, 0, is left out; the output of a call that succeeded is
// kept) and gen_ai.response.time_to_first_chunk in seconds: latgate's
// ttft, the first chunk that carried output.
func usageAttrs(ok bool, prompt, output, cached, reasoning int, ttftMs *float64) []otelAttr {
	var a []otelAttr
	if prompt > 0 {
		a = append(a, intAttr("gen_ai.usage.input_tokens", prompt))
	}
	if ok || output > 0 {
		a = append(a, intAttr("gen_ai.usage.output_tokens", output))
	}
	if cached > 0 {
		a = append(a, intAttr("gen_ai.usage.cache_read.input_tokens", cached))
	}
	if reasoning > 0 {
		a = append(a, intAttr("gen_ai.usage.reasoning.output_tokens", reasoning))
	}
	if ttftMs != nil {
		a = append(a, otelAttr{key: "gen_ai.response.time_to_first_chunk", f: *ttftMs / 1000, isFloat: true})
	}
	return a
}

type msAttr struct {
	name string
	v    *float64
}

// msAttrs are latgate's times in milliseconds (latgate.NAME), those
// observed.
func msAttrs(ms []msAttr) []otelAttr {
	var a []otelAttr
	for _, m := range ms {
		if m.v != nil {
			a = append(a, otelAttr{key: "latgate." + m.name, f: *m.v, isFloat: true})
		}
	}
	return a
}

func intAttr(key string, n int) otelAttr { return otelAttr{key: key, num: int64(n), isInt: true} }
