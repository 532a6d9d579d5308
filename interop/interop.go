// Package interop reads the per-request output of other load-testing
// tools — vLLM's `bench serve`, NVIDIA AIPerf, GuideLLM — into a
// latgate/results/v1 file (docs/formats.md, "Importing other tools'
// results"), so that latgate's statistics can gate them.
//
// There is one decoder per source format. Each converts the tool's units
// to milliseconds, keeps failed requests with their message, makes one run
// per (model, benchmark) and records where the run came from
// (results.Imported). A value the source does not record stays null: it is
// never invented; a value computed from the source's own values is named
// in Imported.Derived. A file without per-request data is refused with the
// reason and the option of the tool that writes it.
//
// The package is pure: it reads no file (the caller hands it the bytes and
// a way to read a file beside one, for AIPerf's summary) and measures
// nothing.
package interop

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/latgate/latgate/internal/jsonerr"
	"github.com/latgate/latgate/results"
)

// Tool names a source format.
type Tool string

// The tools latgate imports.
const (
	VLLM     Tool = "vllm"
	AIPerf   Tool = "aiperf"
	GuideLLM Tool = "guidellm"
)

// Tools lists them in the order the help shows them.
var Tools = []Tool{VLLM, AIPerf, GuideLLM}

// ParseTool checks a --from value.
func ParseTool(s string) (Tool, error) {
	t := Tool(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Tools, t) {
		return t, nil
	}
	names := make([]string, len(Tools))
	for i, t := range Tools {
		names[i] = string(t)
	}
	if s == "" {
		return "", fmt.Errorf("--from: name the tool that wrote the files: %s", strings.Join(names, ", "))
	}
	return "", fmt.Errorf("--from: want one of %s, got %q", strings.Join(names, ", "), s)
}

// Input is one file to import.
type Input struct {
	// Name is the file as the user gave it (used in messages).
	Name string
	Data []byte
	// Sibling reads the file of that base name beside this one (AIPerf
	// writes its summary there); nil when there is no folder to look in.
	Sibling func(base string) ([]byte, error)
}

// Options are what the results file records besides the runs.
type Options struct {
	Source      results.Source
	ToolVersion string
	// Now is the import's time: created_at when no source states a time
	// with its zone.
	Now time.Time
}

// decoders has one decoder per source format: the runs of one file, each
// with its Imported provenance filled in.
var decoders = map[Tool]func(Input) ([]results.Run, error){
	VLLM:     decodeVLLM,
	AIPerf:   decodeAIPerf,
	GuideLLM: decodeGuideLLM,
}

// Import decodes the files of one tool into a results file: one run per
// (model, benchmark) over all files; two files holding the same one are
// refused, since repeats of a benchmark under unknown conditions are not
// one sample.
func Import(tool Tool, inputs []Input, o Options) (*results.File, error) {
	dec, ok := decoders[tool]
	if !ok {
		return nil, fmt.Errorf("no decoder for %q", tool)
	}
	if len(inputs) == 0 {
		return nil, errors.New("no file to import")
	}
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: o.ToolVersion, Source: o.Source}
	f.Source.Tool = string(tool)
	from := map[string]string{}
	var latest time.Time
	for _, in := range inputs {
		runs, err := dec(in)
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			if prev, dup := from[r.Key()]; dup {
				return nil, fmt.Errorf("%s and %s both hold model %q at %q: a results file holds one run per model and benchmark; import repeats of one benchmark into separate files", prev, in.Name, r.Endpoint, r.Scenario)
			}
			from[r.Key()] = in.Name
			if t, err := time.Parse(time.RFC3339Nano, r.Imported.Date); err == nil && t.After(latest) {
				latest = t
			}
			f.Runs = append(f.Runs, r)
		}
	}
	f.CreatedAt = o.Now.UTC().Truncate(time.Second)
	if !latest.IsZero() {
		f.CreatedAt = latest.UTC().Truncate(time.Second)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// newRun is a run of an imported benchmark: endpoint the model (the tool's
// name when the file names none), scenario the benchmark's load, and a
// fingerprint of the tool, the model and the load.
func newRun(tool Tool, name, model, scenario string, parts map[string]string) results.Run {
	endpoint := model
	if endpoint == "" {
		endpoint = string(tool)
	}
	p := map[string]string{"tool": string(tool), "model": model}
	for k, v := range parts {
		p[k] = v
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, p[k])
	}
	return results.Run{Scenario: scenario, Endpoint: endpoint, Model: model,
		Fingerprint: "sha256:" + hex.EncodeToString(h.Sum(nil)), FingerprintParts: p,
		Imported: &results.Imported{Tool: string(tool), File: path.Base(strings.ReplaceAll(name, `\`, "/"))}}
}

// finish completes a run's config from its requests and checks that it
// holds some.
func finish(name string, r *results.Run) error {
	if len(r.Requests) == 0 {
		return fmt.Errorf("%s: %q at %q holds no request", name, r.Endpoint, r.Scenario)
	}
	r.Config.Requests = len(r.Requests)
	for i := range r.Requests {
		roundTimes(&r.Requests[i])
	}
	return nil
}

// roundTimes keeps a request's times to the microsecond, as latgate's own
// results files do (the tools' clocks hold no more).
func roundTimes(q *results.Request) {
	us := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	for _, p := range []*float64{q.TTFTMs, q.TTFCMs, q.TotalMs, q.TPOTMs} {
		if p != nil {
			*p = us(*p)
		}
	}
	for i := range q.ITLMs {
		q.ITLMs[i] = us(q.ITLMs[i])
	}
	q.SentMs = us(q.SentMs)
}

// failed is a failed request with its message.
func failed(msg string) results.Request {
	return results.Request{Error: msg, ITLMs: []float64{}}
}

// succeeded is a successful request: the tools count a request successful
// only after a 200 response.
func succeeded(ttft, total float64) results.Request {
	return results.Request{OK: true, Status: 200, TTFTMs: ptr(ttft), TotalMs: ptr(total), ITLMs: []float64{}, TokensSource: "imported"}
}

func ptr(v float64) *float64 { return &v }

// errorText is a tool's error message on one line: the last line of a
// Python traceback (the exception), whitespace collapsed, at most 500
// characters.
func errorText(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "Traceback (most recent call last)") {
		lines := strings.Split(s, "\n")
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" {
				s = l
				break
			}
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 500 {
		s = string(r[:499]) + "…"
	}
	return s
}

// sum adds up gaps.
func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// number formats a load parameter for a scenario name: 5, 2.5, inf.
func number(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return fmt.Sprintf("%g", v)
}

// epochDate is an epoch time in seconds as RFC 3339 UTC ("" for none).
func epochDate(sec float64) string {
	if sec <= 0 || math.IsNaN(sec) || math.IsInf(sec, 0) {
		return ""
	}
	// To the microsecond: the float holds no more.
	return time.UnixMicro(int64(math.Round(sec * 1e6))).UTC().Format(time.RFC3339Nano)
}

// jsonError turns a decoding error of name's data into one line with the
// place: file:line:col for a syntax or type error.
func jsonError(name string, data []byte, err error) error {
	switch e := jsonerr.Of(data, err); {
	case e.Kind == jsonerr.Empty:
		return fmt.Errorf("%s: empty file", name)
	case e.Kind == jsonerr.Truncated:
		return fmt.Errorf("%s: not a complete JSON document (the file is truncated)", name)
	case e.Kind == jsonerr.Syntax:
		return fmt.Errorf("%s:%d:%d: invalid JSON: %v", name, e.Line, e.Col, e.Err)
	case e.Kind == jsonerr.Type && e.Field == "":
		return fmt.Errorf("%s: the document is a JSON %s, not what the tool writes", name, e.Value)
	case e.Kind == jsonerr.Type:
		return fmt.Errorf("%s:%d:%d: %q is a JSON %s, not the %s the tool writes", name, e.Line, e.Col, e.Field, e.Value, e.Want)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// lineError is a decoding error of one line of a JSON Lines file, with
// its place: file:line:col.
func lineError(name string, n int, line []byte, err error) error {
	switch e := jsonerr.Of(line, err); {
	case e.Kind == jsonerr.Syntax || e.Kind == jsonerr.Truncated && e.Offset > 0:
		return fmt.Errorf("%s:%d:%d: invalid JSON: %v", name, n, e.Col, e.Err)
	case e.Kind == jsonerr.Type && e.Field != "":
		return fmt.Errorf("%s:%d:%d: %q is a JSON %s, not the %s the tool writes", name, n, e.Offset, e.Field, e.Value, e.Want)
	case e.Kind == jsonerr.Type:
		return fmt.Errorf("%s:%d: the line is a JSON %s, not a record", name, n, e.Value)
	}
	return fmt.Errorf("%s:%d: %v", name, n, err)
}
