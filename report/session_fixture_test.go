package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// sessionShape is how the sessions of a fixture run behave: tool steps
// before the answer, a fourth step in extra of the sessions, each step's
// TTFT median (s), the scripted tool's time (ms), failed sessions' share.
type sessionShape struct {
	toolSteps              int
	extra                  float64
	toolTTFT, answerTTFT   float64
	toolMs, failRate, pace float64
}

// sessionRun is a run of n agent sessions as the probe records them: tool
// steps (three argument pieces a pace apart, the call complete one pace
// later, then the tool), an answer step of 32 events; the session's
// stream metrics over its timeline, its steps and session metrics.
func sessionRun(rng *rand.Rand, endpoint, scenario string, n int, sh sessionShape) results.Run {
	r := results.Run{Scenario: scenario, Endpoint: endpoint, Model: "gpt-test", Fingerprint: "sha256:s",
		FingerprintParts: map[string]string{"model": "gpt-test", "tools": "lookup_order@150ms#0a1b2c3d", "max_steps": "5"}, ConfigLine: 9}
	for i := range n {
		tools := sh.toolSteps
		if rng.Float64() < sh.extra {
			tools++
		}
		r.Requests = append(r.Requests, session(rng, sh, tools, rng.Float64() < sh.failRate, i > 0))
	}
	return r
}

// session is one session's record.
func session(rng *rand.Rand, sh sessionShape, tools int, fail, reused bool) results.Request {
	q := results.Request{Status: 200, Reused: reused, ITLMs: []float64{}, TokensSource: "usage"}
	var start, span float64
	var gaps int
	for s := 0; s <= tools; s++ {
		median := sh.toolTTFT
		if s == tools {
			median = sh.answerTTFT
		}
		ttft := 1000 * median * math.Exp(0.25*rng.NormFloat64())
		pace := 1000 * sh.pace * math.Exp(0.15*rng.NormFloat64())
		st := results.Step{StartMs: start, TTFTMs: f64(ttft), PromptTokens: 120 + 40*s, CachedTokens: 100 + 30*s}
		if s == 0 {
			q.TTFTMs, q.FirstToolCallMs, q.TTFBMs, q.FirstEventMs = f64(ttft), f64(ttft), f64(ttft/3), f64(ttft/3)
		}
		if fail && s == tools {
			st.TTFTMs, st.Error = nil, "HTTP 429 Too Many Requests: slow down"
			q.Steps = append(q.Steps, st)
			q.Error, q.Status, q.SessionEnd, q.Failure = fmt.Sprintf("step %d: %s", s+1, st.Error), 429, "error", vocab.HTTPStatus
			break
		}
		pieces := 3
		if s == tools {
			pieces = 32
			st.TTFCMs = f64(ttft)
			q.TTFCMs, q.AnswerMs, q.PerceivedMs = f64(start+ttft), f64(start+ttft), f64(start+ttft)
		} else {
			st.FirstToolCallMs, st.ToolCallMs = f64(ttft), f64(ttft+float64(pieces)*pace)
			st.ToolCalls, st.Tools, st.ToolMs = 1, []string{"lookup_order"}, sh.toolMs
		}
		for range pieces - 1 {
			q.ITLMs = append(q.ITLMs, pace)
		}
		span += float64(pieces-1) * pace
		gaps += pieces - 1
		total := ttft + float64(pieces)*pace
		st.TotalMs, st.OutputTokens = f64(total), pieces
		q.Steps = append(q.Steps, st)
		q.OutputTokens += pieces
		q.PromptTokens += st.PromptTokens
		q.CachedTokens += st.CachedTokens
		start += total + st.ToolMs
	}
	steps := len(q.Steps)
	q.StepCount = &steps
	if q.SessionEnd == "error" {
		return q
	}
	q.OK, q.SessionEnd = true, "answer"
	q.TotalMs, q.SessionMs, q.ToolMs = f64(start), f64(start), f64(float64(tools)*sh.toolMs)
	q.TPOTMs, q.MaxStallMs = f64(span/float64(gaps)), f64(span/float64(gaps))
	return q
}

// TestErrorKind: failures group by their kind (an HTTP failure by its
// status), a session's by kind and the step it failed at; a request
// without a kind (a file from before failures were typed) is unknown,
// whatever its error says.
func TestErrorKind(t *testing.T) {
	t.Parallel()
	steps := func(n int, lastErr string) []results.Step {
		s := make([]results.Step, n)
		s[n-1].Error = lastErr
		return s
	}
	for _, tt := range []struct {
		q    results.Request
		want string
	}{
		{results.Request{Failure: vocab.HTTPStatus, Status: 429, Error: "HTTP 429 Too Many Requests: slow down"}, "HTTP 429 Too Many Requests"},
		{results.Request{Failure: vocab.Stall, Status: 200, Error: "stalled: no data for 15s (stall_timeout) after 3 events"}, "stalled"},
		{results.Request{Failure: vocab.HTTPStatus, Status: 429, Steps: steps(3, "HTTP 429 Too Many Requests: slow down"), Error: "step 3: HTTP 429 …"}, "HTTP 429 Too Many Requests at step 3"},
		{results.Request{Failure: vocab.Truncated, Status: 200, Steps: steps(12, "truncated: …"), Error: "step 12: truncated: …"}, "truncated at step 12"},
		{results.Request{Failure: vocab.MaxSteps, Status: 200, Steps: steps(5, ""), Error: "max_steps (5) reached without a final answer: …"}, "max_steps reached without a final answer"},
		{results.Request{Failure: vocab.HTTPStatus, Error: "HTTP error of a source that kept no status"}, "HTTP error"},
		{results.Request{Status: 500, Error: "HTTP 500 <b>boom</b>: the words are never read"}, "unknown"},
	} {
		if got := ErrorKind(&tt.q); got != tt.want {
			t.Errorf("ErrorKind(%q, %s) = %q, want %q", tt.q.Error, tt.q.Failure, got, tt.want)
		}
	}
	for _, f := range vocab.Failures {
		if _, ok := failureSaid[f]; !ok {
			t.Errorf("failure %q has no words", f)
		}
	}
}

func TestGrouped(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 68250: "68,250", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestMeasurementsOfSessions: latgate run's table gives a session's answer
// p95 and its mean model calls, and "–" for a single call beside it.
func TestMeasurementsOfSessions(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	sh := sessionShape{toolSteps: 2, toolTTFT: 0.30, answerTTFT: 0.35, toolMs: 150, pace: 0.012, extra: 0.5}
	f := &results.File{Runs: []results.Run{sessionRun(rng, "e", "agent", 40, sh), fixtureRun(rng, "e", "chat", 10, 0.3, 0.01, 0, false, false)}}
	var b strings.Builder
	Measurements(&b, f)
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[1], "answer p95") || !strings.Contains(lines[1], "model calls") {
		t.Fatalf("header %q lacks the session columns", lines[1])
	}
	agent, chat := strings.Fields(lines[2]), strings.Fields(lines[3])
	calls, _ := strconv.ParseFloat(agent[len(agent)-2], 64)
	if agent[1] != "agent" || calls < 3.2 || calls > 3.8 || chat[len(chat)-2] != "–" || chat[len(chat)-3] != "–" {
		t.Errorf("rows:\n%s", b.String())
	}
}

// serverSessionRun is a run of n sessions with a server-driven agent (an
// AI SDK route) as the probe records them (probe's
// TestServerDrivenStepStartsWhereTheLastEnded): per turn, one call that
// streams a tool step and an answer step. A tool step starts where the
// step before it ended; its model's wait ends with the tool call's first
// piece (tool-input-start), its arguments follow 20 ms later (its TTFT),
// complete at once (tool_call_ms); the server runs the tool then, and the
// step ends with the tool's result (finish-step after
// tool-output-available), where the answer step starts. Each further turn
// is a new call, sent 5 ms after the last ended.
func serverSessionRun(rng *rand.Rand, endpoint, scenario string, n, turns int, sh sessionShape) results.Run {
	r := results.Run{Scenario: scenario, Endpoint: endpoint, Model: "gpt-test", Fingerprint: "sha256:a",
		FingerprintParts: map[string]string{"model": "gpt-test", "turns": fmt.Sprint(turns)}, ConfigLine: 12}
	for i := range n {
		q := results.Request{OK: true, Status: 200, Reused: i > 0, ITLMs: []float64{}, TokensSource: "usage", SessionEnd: "answer"}
		var at, span, tool float64
		var gaps int
		for turn := range turns {
			if turn > 0 {
				at += 5
			}
			wait := 1000 * sh.toolTTFT * math.Exp(0.25*rng.NormFloat64())
			st := results.Step{Turn: turn, StartMs: at, FirstToolCallMs: f64(wait), TTFTMs: f64(wait + 20), ToolCallMs: f64(wait + 20),
				ToolCalls: 1, Tools: []string{"lookup_order"}, ToolMs: sh.toolMs, TotalMs: f64(wait + 20 + sh.toolMs), OutputTokens: 2}
			if turn == 0 {
				q.TTFTMs, q.FirstToolCallMs, q.TTFBMs, q.FirstEventMs = f64(wait+20), f64(wait), f64(5), f64(5)
			}
			q.ITLMs = append(q.ITLMs, 20)
			span, gaps, tool = span+20, gaps+1, tool+sh.toolMs
			q.Steps = append(q.Steps, st)
			at += *st.TotalMs
			ttft := 1000 * sh.answerTTFT * math.Exp(0.25*rng.NormFloat64())
			pace := 1000 * sh.pace * math.Exp(0.15*rng.NormFloat64())
			ans := results.Step{Turn: turn, StartMs: at, TTFTMs: f64(ttft), TTFCMs: f64(ttft), TotalMs: f64(ttft + 31*pace), OutputTokens: 32}
			for range 31 {
				q.ITLMs = append(q.ITLMs, pace)
			}
			span, gaps = span+31*pace, gaps+31
			if turn == 0 {
				q.TTFCMs, q.PerceivedMs = f64(at+ttft), f64(at+ttft)
			}
			q.AnswerMs = f64(at + ttft)
			q.Steps = append(q.Steps, ans)
			at += *ans.TotalMs
			q.OutputTokens += 34
		}
		steps := len(q.Steps)
		q.StepCount = &steps
		q.TotalMs, q.SessionMs, q.ToolMs = f64(at), f64(at), f64(tool)
		q.TPOTMs, q.MaxStallMs = f64(span/float64(gaps)), f64(span/float64(gaps))
		r.Requests = append(r.Requests, q)
	}
	return r
}
