package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/internal/redact"
)

// ServerTiming is what a server said about its own time on one request (or
// one step of a session): the wait in its queue, the prefill (prompt
// processing to the first token), the decode (first token to the last),
// its whole processing, and a gateway's own overhead. A stage it did not
// report is Missing; what it reported but latgate could not trust is
// Missing too, and counted in Ignored. docs/metrics.md has, per server,
// which field feeds which stage and when it arrives.
type ServerTiming struct {
	Queue, Prefill, Decode, Processing, Gateway time.Duration
	// Source names what reported the stages kept ("vllm", "litellm+vllm"),
	// "" when none was.
	Source string
	// Ignored says why reported values were not kept (a wrong type or unit,
	// a negative or absurd duration, more than latgate measured around
	// it), at most MaxIgnored of them; IgnoredCount counts them all.
	Ignored      []string
	IgnoredCount int
}

// MaxIgnored is the number of reasons a ServerTiming keeps.
const MaxIgnored = 4

// MaxServerDuration is the longest duration a server's report is believed
// to hold: anything longer is absurd whatever latgate measured.
const MaxServerDuration = 24 * time.Hour

// serverSlack is how much a reported duration may exceed what latgate
// measured around it: servers round to the millisecond.
const serverSlack = time.Millisecond

// NoServerTiming is a ServerTiming with nothing reported.
func NoServerTiming() ServerTiming {
	return ServerTiming{Queue: Missing, Prefill: Missing, Decode: Missing, Processing: Missing, Gateway: Missing}
}

// Reported reports whether any stage was kept.
func (t ServerTiming) Reported() bool {
	return t.Queue != Missing || t.Prefill != Missing || t.Decode != Missing || t.Processing != Missing || t.Gateway != Missing
}

// Outside is the time to first token spent outside the engine (network,
// proxies, the framework in front of it): ttft − (queue + prefill), when
// both are reported and ttft was measured; Missing otherwise.
func (t ServerTiming) Outside(ttft time.Duration) time.Duration {
	if ttft == Missing || t.Queue == Missing || t.Prefill == Missing {
		return Missing
	}
	return max(ttft-t.Queue-t.Prefill, 0)
}

// stage is one of ServerTiming's durations.
type stage int

const (
	stageQueue stage = iota
	stagePrefill
	stageDecode
	stageProcessing
	stageGateway
	nStages
)

var stageNames = [nStages]string{"queue", "prefill", "decode", "processing", "gateway"}

// reported is one stage's value as a response reported it, unchecked.
type reported struct {
	d      time.Duration
	ok     bool
	header bool   // it came in the response headers (known by the first byte)
	source string // the server form that reported it
	field  string // where: a header's or a JSON field's name
}

// serverReport gathers what one response reported about the server's time:
// its headers, then its events (a later event's report of a stage
// replaces an earlier one's). check turns it into a ServerTiming.
type serverReport struct {
	forms  []*timingForm // where the API's servers report their time
	hide   *redact.Set   // hidden in what a reason quotes of the server
	stages [nStages]reported
	bad    []string
	nBad   int
}

func (r *serverReport) set(s stage, v reported) { v.ok = true; r.stages[s] = v }

func (r *serverReport) reject(reason string) {
	if len(r.bad) < MaxIgnored {
		r.bad = append(r.bad, reason)
	}
	r.nBad++
}

// timingForm is one way servers report their own time on a request:
// response headers (milliseconds), or fields of an event's JSON (marker is
// in an event that may hold them; read reads them from its top-level
// object). An API's description lists the forms its servers use.
type timingForm struct {
	headers []headerField
	marker  []byte
	read    func(r *serverReport, top map[string]json.RawMessage)
}

// headerField is a timing header, the server form that sends it and the
// stage it feeds.
type headerField struct {
	name, source string
	s            stage
}

// The forms of docs/metrics.md's table.
var (
	// formOpenAI: OpenAI's and Azure's openai-processing-ms.
	formOpenAI = &timingForm{headers: []headerField{{"openai-processing-ms", "openai", stageProcessing}}}
	// formLiteLLM: a LiteLLM proxy's own overhead.
	formLiteLLM = &timingForm{headers: []headerField{{"x-litellm-overhead-duration-ms", "litellm", stageGateway}}}
	// formTGI: Text Generation Inference's headers (sent on a response
	// that is not streamed).
	formTGI = &timingForm{headers: []headerField{{"x-queue-time", "tgi", stageQueue}, {"x-total-time", "tgi", stageProcessing}}}
	// formOllama: Ollama's durations on its final line.
	formOllama = &timingForm{marker: []byte(`_duration"`), read: (*serverReport).readOllama}
	// formLlamaCpp: llama.cpp's timings on its last chunk.
	formLlamaCpp = &timingForm{marker: []byte(`"timings"`), read: func(r *serverReport, top map[string]json.RawMessage) {
		r.readFields("llama.cpp", "timings.", object(top["timings"]), time.Millisecond, []msField{{"prompt_ms", stagePrefill}, {"predicted_ms", stageDecode}})
	}}
	// formVLLM: vLLM's per-request metrics (chat's usage chunk, the
	// Responses API's response.completed).
	formVLLM = &timingForm{marker: []byte(`"metrics"`), read: func(r *serverReport, top map[string]json.RawMessage) {
		metrics := object(top["metrics"])
		if m := object(object(top["response"])["metrics"]); m != nil {
			metrics = m
		}
		r.readFields("vllm", "metrics.", metrics, time.Millisecond, []msField{{"queue_time_ms", stageQueue}, {"time_to_first_token_ms", stagePrefill}, {"generation_time_ms", stageDecode}})
	}}
	// formGroq: Groq's usage times (x_groq.usage, or usage).
	formGroq = &timingForm{marker: []byte(`"queue_time`), read: func(r *serverReport, top map[string]json.RawMessage) {
		groq := object(top["usage"])
		if u := object(object(top["x_groq"])["usage"]); u != nil {
			groq = u
		}
		r.readGroq(groq)
	}}
)

// openAICompatible are the forms of the servers behind an OpenAI-style
// API: OpenAI's header, a LiteLLM proxy's, TGI's, and the engines' own
// fields (llama.cpp, vLLM, Groq).
var openAICompatible = []*timingForm{formOpenAI, formLiteLLM, formTGI, formLlamaCpp, formVLLM, formGroq}

// allTimingForms are every form latgate reads.
var allTimingForms = []*timingForm{formOpenAI, formLiteLLM, formTGI, formOllama, formLlamaCpp, formVLLM, formGroq}

// readHeaders reads the timing headers of a response that the report's
// forms send, all in milliseconds.
func (r *serverReport) readHeaders(h http.Header) {
	for _, form := range r.forms {
		for _, f := range form.headers {
			r.readHeader(h, f)
		}
	}
}

func (r *serverReport) readHeader(h http.Header, f headerField) {
	v := h.Get(f.name)
	if v == "" {
		return
	}
	ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		r.reject(fmt.Sprintf("%s header %q is not a number of milliseconds", f.name, r.quote(v)))
		return
	}
	d, err := duration(ms, time.Millisecond)
	if err != nil {
		r.reject(fmt.Sprintf("%s header: %v", f.name, err))
		return
	}
	r.set(f.s, reported{d: d, header: true, source: f.source, field: f.name})
}

// readEvent reads the server timing an event's JSON reports in the
// report's forms. An event that is not a JSON object, or holds none of
// them, adds nothing; each form is read apart, so one of an unexpected
// shape does not hide another. The event is parsed only when it holds a
// form's marker.
func (r *serverReport) readEvent(data []byte) {
	var top map[string]json.RawMessage
	parsed := false
	for _, form := range r.forms {
		if form.read == nil || !bytes.Contains(data, form.marker) {
			continue
		}
		if !parsed {
			top, parsed = object(data), true
		}
		if top == nil {
			return // not an object: the decoder says if it is malformed
		}
		form.read(r, top)
	}
}

// object is a JSON object's fields, raw; nil when raw is not an object.
func object(raw []byte) map[string]json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// readOllama reads Ollama's durations (integer nanoseconds) from its final
// chunk, "done": true: load_duration is the wait for its scheduler to hand
// the request a loaded model (the queue), prompt_eval_duration the
// prefill, eval_duration the decode, total_duration the whole request.
func (r *serverReport) readOllama(ev map[string]json.RawMessage) {
	if string(ev["done"]) != "true" {
		return
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		s    stage
	}{
		{"load_duration", ev["load_duration"], stageQueue},
		{"prompt_eval_duration", ev["prompt_eval_duration"], stagePrefill},
		{"eval_duration", ev["eval_duration"], stageDecode},
		{"total_duration", ev["total_duration"], stageProcessing},
	} {
		if len(f.raw) == 0 || string(f.raw) == "null" {
			continue
		}
		v, err := r.number(f.raw)
		if err == nil && v != math.Trunc(v) {
			err = fmt.Errorf("%s is not a whole number of nanoseconds", r.quote(head(f.raw)))
		}
		var d time.Duration
		if err == nil {
			d, err = duration(v, time.Nanosecond)
		}
		if err != nil {
			r.reject(fmt.Sprintf("ollama %s: %v", f.name, err))
			continue
		}
		r.set(f.s, reported{d: d, source: "ollama", field: f.name})
	}
}

// msField is a JSON field of a number of some unit and the stage it feeds.
type msField struct {
	name string
	s    stage
}

// readFields reads the fields of obj (llama.cpp's timings, vLLM's metrics,
// Groq's usage), numbers of unit; null means not available.
func (r *serverReport) readFields(source, prefix string, obj map[string]json.RawMessage, unit time.Duration, fields []msField) {
	for _, f := range fields {
		raw, ok := obj[f.name]
		if !ok || string(raw) == "null" {
			continue
		}
		v, err := r.number(raw)
		var d time.Duration
		if err == nil {
			d, err = duration(v, unit)
		}
		if err != nil {
			r.reject(fmt.Sprintf("%s %s%s: %v", source, prefix, f.name, err))
			continue
		}
		r.set(f.s, reported{d: d, source: source, field: prefix + f.name})
	}
}

// readGroq reads Groq's usage times, numbers of seconds: queue_time,
// prompt_time (prefill), completion_time (decode), total_time (prompt and
// completion). A usage without queue_time is another server's.
func (r *serverReport) readGroq(u map[string]json.RawMessage) {
	if _, ok := u["queue_time"]; !ok {
		return
	}
	r.readFields("groq", "usage.", u, time.Second, []msField{{"queue_time", stageQueue}, {"prompt_time", stagePrefill}, {"completion_time", stageDecode}, {"total_time", stageProcessing}})
}

// number is a JSON number's value; anything else (a string, a bool, an
// object) is the wrong type.
func (r *serverReport) number(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, fmt.Errorf("%s is not a number", r.quote(head(raw)))
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number", r.quote(head(raw)))
	}
	return v, nil
}

// quote is what a reason quotes of a value the server sent: its secrets
// hidden, then cut to 40 bytes.
func (r *serverReport) quote(v string) string {
	return r.hide.Clip(v, 40)
}

// duration is v units as a Duration: finite, not negative, at most
// MaxServerDuration.
func duration(v float64, unit time.Duration) (time.Duration, error) {
	name := map[time.Duration]string{time.Nanosecond: "ns", time.Millisecond: "ms", time.Second: "s"}[unit]
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%v is not a finite number", v)
	case v < 0:
		return 0, fmt.Errorf("%v %s is negative", v, name)
	case v*float64(unit) > float64(MaxServerDuration):
		return 0, fmt.Errorf("%v %s is absurd (over %s)", v, name, MaxServerDuration)
	}
	return time.Duration(math.Round(v * float64(unit))), nil
}

// measured is what latgate measured around a response: its time to first
// byte, to first token and to the end of the stream (Missing when not
// observed).
type measured struct {
	ttfb, ttft, total time.Duration
}

// check keeps the stages that fit what latgate measured: a header's value
// was known when the headers were sent, so it is at most the TTFB; every
// value is at most the whole request; the queue and the prefill came
// before the first token, and queue, prefill and decode one after the
// other within the request. A stage that does not fit is dropped with its
// reason, never trusted.
func (r serverReport) check(m measured) ServerTiming {
	t := NoServerTiming()
	t.Ignored, t.IgnoredCount = r.bad, r.nBad
	st := r.stages
	bound := func(s stage, limit time.Duration, what string) {
		v := st[s]
		if v.ok && limit != Missing && v.d > limit+serverSlack {
			st[s].ok = false
			t.ignore(fmt.Sprintf("%s %s: %s is more than the %s latgate measured (%s)", v.source, v.field, msText(v.d), what, msText(limit)))
		}
	}
	for s := range nStages {
		if st[s].header {
			bound(s, m.ttfb, "time to first byte")
		}
		bound(s, m.total, "whole request")
	}
	r.sum(&st, &t, m.ttft, "time to first token", stageQueue, stagePrefill)
	r.sum(&st, &t, m.total, "whole request", stageQueue, stagePrefill, stageDecode)
	t.keep(st)
	return t
}

// sum drops the stages ss when together they exceed limit.
func (r serverReport) sum(st *[nStages]reported, t *ServerTiming, limit time.Duration, what string, ss ...stage) {
	var total time.Duration
	var names []string
	for _, s := range ss {
		if !st[s].ok {
			return
		}
		total += st[s].d
		names = append(names, stageNames[s])
	}
	if limit == Missing || total <= limit+serverSlack {
		return
	}
	for _, s := range ss {
		st[s].ok = false
	}
	t.ignore(fmt.Sprintf("%s: %s together is more than the %s latgate measured (%s)", strings.Join(names, " + "), msText(total), what, msText(limit)))
}

func (t *ServerTiming) ignore(reason string) {
	if len(t.Ignored) < MaxIgnored {
		t.Ignored = append(t.Ignored, reason)
	}
	t.IgnoredCount++
}

// keep sets the stages still trusted and the sources that reported them.
func (t *ServerTiming) keep(st [nStages]reported) {
	dst := [nStages]*time.Duration{&t.Queue, &t.Prefill, &t.Decode, &t.Processing, &t.Gateway}
	var sources []string
	for s := range nStages {
		if !st[s].ok {
			continue
		}
		*dst[s] = st[s].d
		if !containsString(sources, st[s].source) {
			sources = append(sources, st[s].source)
		}
	}
	t.Source = strings.Join(sources, "+")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// msText formats d in milliseconds for a message.
func msText(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + " ms"
}
