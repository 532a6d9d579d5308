// Package baseline reads, writes, validates, matches and merges results
// files (SPEC §5, schema latgate/results/v1). A baseline is simply a results
// file recorded on the base branch.
//
// Files are written atomically (a temporary file in the same folder, synced,
// then renamed), so a crash never leaves half a file. Latencies are
// milliseconds in the file and time.Duration everywhere else. The package
// does not measure or compare anything, and does not talk to GitHub.
package baseline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/latgate/latgate/probe"
)

// Schema and MetricsVersion identify the format and the metric definitions.
const (
	Schema         = "latgate/results/v1"
	MetricsVersion = 1
)

// File is a results file.
type File struct {
	Schema         string    `json:"schema"`
	MetricsVersion int       `json:"metrics_version"`
	ToolVersion    string    `json:"tool_version"`
	CreatedAt      time.Time `json:"created_at"`
	Source         Source    `json:"source"`
	Runs           []Run     `json:"runs"`
	// Notes say when a run stopped early or was interrupted.
	Notes []string `json:"notes,omitempty"`
}

// Source says where and from what the file was recorded.
type Source struct {
	GitSHA string `json:"git_sha"`
	GitRef string `json:"git_ref"`
	Runner string `json:"runner"`
	Region string `json:"region"`
}

// Run is one (endpoint, scenario) pair.
type Run struct {
	Scenario         string            `json:"scenario"`
	Endpoint         string            `json:"endpoint"`
	Model            string            `json:"model"`
	Fingerprint      string            `json:"fingerprint"`
	FingerprintParts map[string]string `json:"fingerprint_parts,omitempty"`
	ConfigLine       int               `json:"config_line,omitempty"`
	Config           RunConfig         `json:"config"`
	Region           string            `json:"region,omitempty"`
	Requests         []Request         `json:"requests"`
}

// RunConfig records how the run was driven.
type RunConfig struct {
	MaxTokens       int     `json:"max_tokens"`
	Concurrency     int     `json:"concurrency,omitempty"`
	Rate            float64 `json:"rate,omitempty"`
	Requests        int     `json:"requests"`
	Warmup          int     `json:"warmup"`
	ColdConnections bool    `json:"cold_connections,omitempty"`
	ReadingRate     float64 `json:"reading_rate"`
}

// Request is one measured request; every key of SPEC §4. A time that was
// not observed (for example the TTFT of a failed request) is null.
type Request struct {
	OK           bool      `json:"ok"`
	Status       int       `json:"status"`
	Error        string    `json:"error"`
	DNSMs        float64   `json:"dns_ms"`
	ConnectMs    float64   `json:"connect_ms"`
	TLSMs        float64   `json:"tls_ms"`
	Reused       bool      `json:"reused"`
	TTFBMs       *float64  `json:"ttfb_ms"`
	FirstEventMs *float64  `json:"first_event_ms"`
	TTFTMs       *float64  `json:"ttft_ms"`
	TTFCMs       *float64  `json:"ttfc_ms"`
	TotalMs      *float64  `json:"total_ms"`
	PerceivedMs  *float64  `json:"perceived_ms"`
	TPOTMs       *float64  `json:"tpot_ms"`
	MaxStallMs   *float64  `json:"max_stall_ms"`
	ITLMs        []float64 `json:"itl_ms"`
	OutputTokens int       `json:"output_tokens"`
	PromptTokens int       `json:"prompt_tokens"`
	CachedTokens int       `json:"cached_tokens"`
	TokensSource string    `json:"tokens_source"`
}

// ms converts at the file edge, to the microsecond.
func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

func optMs(d time.Duration) *float64 {
	if d < 0 {
		return nil
	}
	v := ms(d)
	return &v
}

// FromRecord converts a probe record to its file form.
func FromRecord(r probe.Record) Request {
	q := Request{
		OK: r.OK, Status: r.Status, Error: r.Error,
		DNSMs: ms(r.DNS), ConnectMs: ms(r.Connect), TLSMs: ms(r.TLS), Reused: r.Reused,
		TTFBMs: optMs(r.TTFB), FirstEventMs: optMs(r.FirstEvent), TTFTMs: optMs(r.TTFT), TTFCMs: optMs(r.TTFC),
		TotalMs: optMs(r.Total), PerceivedMs: optMs(r.Perceived), TPOTMs: optMs(r.TPOT), MaxStallMs: optMs(r.MaxStall),
		ITLMs:        make([]float64, len(r.ITL)),
		OutputTokens: r.OutputTokens, PromptTokens: r.PromptTokens, CachedTokens: r.CachedTokens, TokensSource: r.TokensSource,
	}
	for i, g := range r.ITL {
		q.ITLMs[i] = ms(g)
	}
	return q
}

// Seconds converts an optional millisecond value to seconds (NaN if null).
func Seconds(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v / 1000
}

// Write writes f to path atomically, as compact JSON streamed to the file
// (no copy of the whole document in memory).
func Write(path string, f *File) error {
	return writeAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		if err := json.NewEncoder(bw).Encode(f); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// WriteAtomic writes data to a temporary file beside path, syncs it and
// renames it over path.
func WriteAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func writeAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Read reads and validates a results file.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	return Decode(path, b)
}

// Decode parses and validates a results file's bytes; name is used in errors.
func Decode(name string, b []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: not a complete JSON document (the file is empty or truncated)", name)
		case errors.As(err, &se):
			line, col := position(b, se.Offset-1) // Offset counts the offending byte
			return nil, fmt.Errorf("%s:%d:%d: invalid JSON: %v", name, line, col, se)
		case errors.As(err, &te):
			line, col := position(b, te.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %q should be a %v, not a JSON %s", name, line, col, te.Field, te.Type, te.Value)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &f, nil
}

func position(b []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Validate checks the schema, metrics version and required keys.
func (f *File) Validate() error {
	if f.Schema != Schema {
		if f.Schema == "" {
			return fmt.Errorf("not a latgate results file (no \"schema\" key; want %q)", Schema)
		}
		return fmt.Errorf("not a latgate results file: schema is %q, want %q", f.Schema, Schema)
	}
	if f.MetricsVersion != MetricsVersion {
		return fmt.Errorf("recorded with metrics_version %d, but this latgate measures with version %d: the definitions differ, so re-record the baseline with this version", f.MetricsVersion, MetricsVersion)
	}
	if len(f.Runs) == 0 {
		return errors.New("no runs: the file holds no measurements")
	}
	seen := map[string]bool{}
	for i, r := range f.Runs {
		if r.Scenario == "" || r.Endpoint == "" {
			return fmt.Errorf("runs[%d]: \"scenario\" and \"endpoint\" are required", i)
		}
		k := r.Key()
		if seen[k] {
			return fmt.Errorf("runs[%d]: endpoint %q, scenario %q appears twice", i, r.Endpoint, r.Scenario)
		}
		seen[k] = true
		for j, q := range r.Requests {
			if q.OK && (q.TTFTMs == nil || q.TotalMs == nil) {
				return fmt.Errorf("runs[%d].requests[%d]: an ok request needs ttft_ms and total_ms", i, j)
			}
		}
	}
	return nil
}

// Key identifies a run across files.
func (r Run) Key() string { return r.Endpoint + "\x00" + r.Scenario }

// OKCount is the number of successful requests.
func (r Run) OKCount() int {
	n := 0
	for _, q := range r.Requests {
		if q.OK {
			n++
		}
	}
	return n
}

// Pair is a run matched between baseline and current; Base or Current is nil
// when the scenario is new or was removed.
type Pair struct {
	Endpoint, Scenario string
	Base, Current      *Run
	// Changed lists what differs in the fingerprint ("max_tokens 128 → 256"),
	// or "configuration" when the parts are not known.
	Changed []string
}

// Match pairs runs by (endpoint, scenario), in the current file's order,
// then removed runs.
func Match(base, cur *File) []Pair {
	idx := map[string]*Run{}
	if base != nil {
		for i := range base.Runs {
			idx[base.Runs[i].Key()] = &base.Runs[i]
		}
	}
	var out []Pair
	used := map[string]bool{}
	for i := range cur.Runs {
		c := &cur.Runs[i]
		p := Pair{Endpoint: c.Endpoint, Scenario: c.Scenario, Current: c}
		if b, ok := idx[c.Key()]; ok {
			p.Base = b
			used[c.Key()] = true
			if b.Fingerprint != c.Fingerprint {
				p.Changed = diffParts(b.FingerprintParts, c.FingerprintParts)
			}
		}
		out = append(out, p)
	}
	if base != nil {
		for i := range base.Runs {
			b := &base.Runs[i]
			if !used[b.Key()] {
				out = append(out, Pair{Endpoint: b.Endpoint, Scenario: b.Scenario, Base: b})
			}
		}
	}
	return out
}

func diffParts(a, b map[string]string) []string {
	if len(a) == 0 || len(b) == 0 {
		return []string{"configuration"}
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] != b[k] {
			switch {
			case a[k] == "":
				out = append(out, fmt.Sprintf("%s set to %s", k, b[k]))
			case b[k] == "":
				out = append(out, fmt.Sprintf("%s removed (was %s)", k, a[k]))
			case k == "messages":
				out = append(out, "messages changed")
			default:
				out = append(out, fmt.Sprintf("%s %s → %s", k, a[k], b[k]))
			}
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		out = []string{"configuration"}
	}
	return out
}

// Merge combines results files (for example from a matrix of regions). Runs
// with the same (endpoint, scenario) are a conflict unless identical.
func Merge(files []*File, names []string) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("nothing to merge")
	}
	out := *files[0]
	out.Runs = nil
	out.Notes = nil
	from := map[string]int{}
	var raw [][]byte // each kept run as it was in its file
	var regions, runners []string
	for i, f := range files {
		if f.MetricsVersion != files[0].MetricsVersion {
			return nil, fmt.Errorf("%s has metrics_version %d but %s has %d: cannot merge", names[i], f.MetricsVersion, names[0], files[0].MetricsVersion)
		}
		regions = appendUnique(regions, f.Source.Region)
		runners = appendUnique(runners, f.Source.Runner)
		out.Notes = append(out.Notes, f.Notes...)
		if f.CreatedAt.After(out.CreatedAt) {
			out.CreatedAt = f.CreatedAt
		}
		for _, r := range f.Runs {
			this, _ := json.Marshal(r)
			if r.Region == "" {
				r.Region = f.Source.Region
			}
			if j, ok := from[r.Key()]; ok {
				if !bytes.Equal(raw[j], this) {
					return nil, fmt.Errorf("endpoint %q, scenario %q is in both %s and another file with different data: give each matrix leg its own endpoint name (for example the region)", r.Endpoint, r.Scenario, names[i])
				}
				continue
			}
			from[r.Key()] = len(out.Runs)
			raw = append(raw, this)
			out.Runs = append(out.Runs, r)
		}
	}
	out.Source.Region = strings.Join(regions, ",")
	out.Source.Runner = strings.Join(runners, ",")
	return &out, nil
}

func appendUnique(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
