package gate

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"path/filepath"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/workload"
)

// traceDraw is a workload scenario's draw from its trace: the entries
// both sides replay, item k being Entries[k].
type traceDraw struct {
	w    *suite.Workload
	draw workload.Draw
	salt uint64
	// turn is each entry's turn in its session (from 1; 0 without one),
	// earlier the entries of its session drawn before it, in order.
	turn    []int
	earlier [][]int
	// at is each entry's replay time (timing: replay), from the first.
	at []time.Duration
}

// drawTrace reads a scenario's trace, inside root (the suite's
// repository), and draws its sample: bad input, a
// line of the trace or a replay longer than maxDuration, is refused before
// any request.
func drawTrace(s suite.Scenario, cfgPath, root string, maxDuration time.Duration) (*traceDraw, error) {
	w := s.Workload
	open := func() (io.ReadCloser, error) { return fileio.OpenTraceInside(root, w.Path) }
	d, err := workload.Sample(open, w.Path, w.Format, w.Sample)
	if err != nil {
		return nil, AsBadInput(fmt.Errorf("%s:%d: scenario %q: workload: %w", cfgPath, w.Line, s.Name, err))
	}
	if len(d.Entries) == 0 {
		return nil, BadInputf("scenario %q: workload: %s holds no request to replay", s.Name, w.Trace)
	}
	h := fnv.New64a()
	_, _ = io.WriteString(h, d.Seed)
	td := &traceDraw{w: w, draw: d, salt: h.Sum64(), turn: make([]int, len(d.Entries)), earlier: make([][]int, len(d.Entries))}
	sessions := map[string][]int{}
	for k, e := range d.Entries {
		if e.Session == "" {
			continue
		}
		td.earlier[k] = sessions[e.Session]
		sessions[e.Session] = append(sessions[e.Session][:len(sessions[e.Session]):len(sessions[e.Session])], k)
		td.turn[k] = len(sessions[e.Session])
	}
	if w.Timing == suite.TimingReplay {
		td.at = make([]time.Duration, len(d.Entries))
		for k, e := range d.Entries {
			td.at[k] = time.Duration(float64(e.At-d.Entries[0].At) / w.Speedup)
		}
		if last := td.at[len(td.at)-1]; last > maxDuration {
			return nil, BadInputf("scenario %q: workload: the replay of %d entries of %s at speedup %g takes %s, longer than limits.max_duration (%s): raise speedup or limits.max_duration, or lower sample",
				s.Name, len(d.Entries), w.Trace, w.Speedup, last.Round(time.Second), maxDuration)
		}
	}
	return td, nil
}

// traceSide is how one side of a workload scenario makes its requests:
// its endpoint's body, with its own count of the lexicon's tokens.
type traceSide struct {
	d      *traceDraw
	s      suite.Scenario
	ep     suite.Endpoint
	tokens workload.Tokens
	source string // where tokens came from (results.TokenModel.Source)
}

// item makes the request of entry k: its prompt synthesized to the
// entry's input length in the side's tokens, its output length asked.
func (ts *traceSide) item(k int, r *probe.Request) {
	e := ts.d.draw.Entries[k]
	earlier := make([]workload.Entry, len(ts.d.earlier[k]))
	for i, j := range ts.d.earlier[k] {
		earlier[i] = ts.d.draw.Entries[j]
	}
	syn := workload.Synth{Tokens: ts.tokens, BlockTokens: ts.d.w.BlockTokens, Salt: ts.d.salt}
	p := bodyParams(ts.s, ts.ep, "")
	p.Messages = []probe.Message{{Role: "user", Content: syn.Prompt(e, earlier)}}
	if e.Output > 0 {
		p.MaxTokens = e.Output
		if ts.d.w.ExactOutput {
			p.MinTokens = e.Output
		}
	}
	r.Body, _ = probe.Body(apiOf(ts.ep), p) // the API's body was built once in groupOf
}

// ref is what a request of item k replayed.
func (ts *traceSide) ref(k int) *results.TraceRef {
	if k < 0 || k >= len(ts.d.draw.Entries) {
		return nil
	}
	e := ts.d.draw.Entries[k]
	t := &results.TraceRef{Line: e.Line, Input: e.Input, Output: e.Output, Stratum: ts.d.draw.Stratum(e.Input), Turn: ts.d.turn[k]}
	if ts.d.at != nil {
		t.ScheduledMs = optMs(ts.d.at[k])
	}
	return t
}

// workload is the run's record of the draw and the side's token count.
func (ts *traceSide) workload() *results.Workload {
	d, w := ts.d.draw, ts.d.w
	out := &results.Workload{Trace: filepath.Base(w.Trace), Format: d.Format, Lines: d.Lines, Sessions: d.Sessions, Sample: len(d.Entries),
		Seed: d.Seed, Timing: w.Timing, BlockTokens: w.BlockTokens, Strata: d.Strata,
		Tokens: results.TokenModel{PerWord: ts.tokens.PerWord, Overhead: ts.tokens.Overhead, Source: ts.source}}
	if w.Timing == suite.TimingReplay {
		out.Speedup = w.Speedup
	}
	return out
}

// Calibration prompts: the words of the two prompts an endpoint's count
// of the lexicon's tokens is learned from.
const calibrateShort, calibrateLong = 16, 160

// calibrate learns the side's count of the lexicon's tokens from two
// prompts' prompt_tokens (max_tokens 1, not measured); a server that
// reports none, or counts that are not a count of those prompts, leave
// a word a token, said in the run's workload.
func (ts *traceSide) calibrate(ctx context.Context, p *probe.Prober, req probe.Request) {
	counts := [2]int{}
	for i, n := range [2]int{calibrateShort, calibrateLong} {
		bp := bodyParams(ts.s, ts.ep, "")
		bp.Messages, bp.MaxTokens = []probe.Message{{Role: "user", Content: workload.Calibration(n)}}, 1
		r := req
		r.Body, _ = probe.Body(apiOf(ts.ep), bp)
		rec := p.Do(ctx, r)
		counts[i] = rec.PromptTokens
		if !rec.OK {
			ts.tokens, ts.source = workload.Assumed, "assumed: a calibration request failed"
			return
		}
	}
	t, ok := workload.Fit(calibrateShort, counts[0], calibrateLong, counts[1])
	switch {
	case counts[0] == 0 && counts[1] == 0:
		ts.tokens, ts.source = workload.Assumed, "assumed: the server reports no prompt_tokens"
	case !ok:
		ts.tokens, ts.source = workload.Assumed, fmt.Sprintf("assumed: prompt_tokens %d and %d do not count prompts of %d and %d words", counts[0], counts[1], calibrateShort, calibrateLong)
	default:
		ts.tokens, ts.source = t, "prompt_tokens"
	}
}

// scenarioDraw draws a workload scenario's trace (nil for another), and
// sets its requests to the entries drawn (fewer than its sample when the
// trace holds fewer). A replay runs in one lane, on a text API.
func scenarioDraw(s *suite.Scenario, cfg *suite.Config) (*traceDraw, error) {
	if s.Workload == nil {
		return nil, nil
	}
	for _, ep := range cfg.EndpointsFor(*s) {
		if ep.API == "browser" {
			return nil, BadInputf("scenario %q: endpoint %q is a chat page (api browser): a workload's prompts are sent, not typed; measure it with an API", s.Name, ep.Name)
		}
		if s.Workload.ExactOutput && !probe.AsksMinTokens(apiOf(ep)) {
			return nil, BadInputf("scenario %q: workload.exact_output: endpoint %q's API (%s) has no way to ask for an output length exactly; its answers are at most each entry's output length without it", s.Name, ep.Name, apiOf(ep))
		}
	}
	if s.Workload.Timing == suite.TimingReplay && cfg.Lanes > 1 {
		return nil, BadInputf("scenario %q: a replay runs at the trace's times in one lane: lanes is %d", s.Name, cfg.Lanes)
	}
	td, err := drawTrace(*s, cfg.Path, fileio.Root(filepath.Dir(cfg.Path)), cfg.Limits.MaxDuration) // the trace only from the suite's repository
	if err != nil {
		return nil, err
	}
	s.Requests = len(td.draw.Entries)
	return td, nil
}

// calibrate learns each workload side's count of the lexicon's tokens
// before the run (two requests per side, not measured).
func (m *measurement) calibrate(ctx context.Context, p *probe.Prober) {
	for i, pl := range m.plan {
		if pl.trace == nil {
			continue
		}
		g := m.groups[i]
		head := g.Request
		if pl.base != nil {
			head = *g.Head
			pl.base.trace.calibrate(ctx, p, g.Request)
		}
		pl.trace.calibrate(ctx, p, head)
	}
}
