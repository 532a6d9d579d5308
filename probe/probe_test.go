package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/sim"
)

func body(t *testing.T, maxTokens int) []byte {
	t.Helper()
	b, err := json.Marshal(openai.ChatCompletionRequest{
		Model:               "test",
		Messages:            []openai.ChatCompletionMessage{{Role: "user", Content: "hello there"}},
		MaxCompletionTokens: maxTokens,
		Stream:              true,
		StreamOptions:       &openai.StreamOptions{IncludeUsage: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serve starts a simulator on the in-memory loopback of the test's
// synctest bubble: the simulator and the prober share one virtual clock,
// so every latency the simulator injects is measured exactly.
func serve(t *testing.T, p sim.Profile) *clocktest.Server {
	t.Helper()
	return clocktest.NewServer(t, sim.New(p, 1))
}

func do(t *testing.T, srv *clocktest.Server, p *Prober, maxTokens int) Record {
	t.Helper()
	if p == nil {
		p = &Prober{StallTimeout: 2 * time.Second, Timeout: 10 * time.Second}
	}
	if p.Client == nil {
		p.Client = srv.Client()
	}
	return p.Do(context.Background(), Request{URL: srv.URL + "/v1/chat/completions", Body: body(t, maxTokens), APIKey: "sk-test-123456"})
}

// exactly checks a latency measured on virtual time: the simulator waits
// exactly what it injects and the clock stands still while the prober
// reads, so a probe that mis-measures by a nanosecond fails.
func exactly(t *testing.T, name string, got, want time.Duration) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want exactly %v", name, got, want)
	}
}

func TestTTFTIgnoresRoleChunkAndKeepAlives(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, sim.Profile{
			TTFT:   sim.Fixed(150 * time.Millisecond),
			ITL:    sim.Fixed(10 * time.Millisecond),
			Tokens: 20,
			Quirks: sim.Quirks{RoleChunk: true, KeepAlives: 5, EmptyChunk: true},
		})
		rec := do(t, srv, nil, 0)
		if !rec.OK {
			t.Fatalf("request failed: %s", rec.Error)
		}
		exactly(t, "ttft", rec.TTFT, 150*time.Millisecond)
		exactly(t, "ttfc", rec.TTFC, 150*time.Millisecond)
		// No header delay: the headers and the role chunk come at once.
		exactly(t, "ttfb", rec.TTFB, 0)
		exactly(t, "first_event", rec.FirstEvent, 0)
		// 20 tokens, 19 gaps of 10ms after the first token.
		exactly(t, "total", rec.Total, 150*time.Millisecond+19*10*time.Millisecond)
		if len(rec.ITL) != 19 {
			t.Fatalf("len(itl) = %d, want 19", len(rec.ITL))
		}
		for i, g := range rec.ITL {
			exactly(t, fmt.Sprintf("itl[%d]", i), g, 10*time.Millisecond)
		}
		exactly(t, "tpot", rec.TPOT, 10*time.Millisecond)
		exactly(t, "max_stall", rec.MaxStall, 10*time.Millisecond)
		if rec.OutputTokens != 20 || rec.TokensSource != "usage" {
			t.Errorf("tokens = %d from %q, want 20 from usage", rec.OutputTokens, rec.TokensSource)
		}
		// The stream (100 tokens/s) outpaces the reader (10/s): perceived == ttft.
		exactly(t, "perceived", rec.Perceived, 150*time.Millisecond)
	})
}

func TestReaderModelWorkedCase(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	// A reader at 10 tokens/s (100ms a token) starts at the first token
	// (1000ms). Token 2 is there when needed; token 3 arrives at 1500ms,
	// 300ms after the reader finished token 2 (1200ms): the reader waits
	// 300ms. Token 4 arrives while token 3 is being read.
	events := []outputEvent{{at: 1000 * ms, chars: 4}, {at: 1050 * ms, chars: 4}, {at: 1500 * ms, chars: 4}, {at: 1520 * ms, chars: 4}}
	got := readerModel(events, spreadTokens(events, 0), 10)
	if want := 1300 * ms; got != want {
		t.Errorf("perceived = %v, want %v (ttft 1000ms + 300ms of waiting)", got, want)
	}
	// An event carrying several tokens gives them all at once: 4 tokens by
	// usage spread over 2 events by characters (1 and 3 tokens).
	events = []outputEvent{{at: 100 * ms, chars: 2}, {at: 150 * ms, chars: 6}}
	k := spreadTokens(events, 4)
	if k[0] != 1 || k[1] != 3 {
		t.Fatalf("spread = %v, want [1 3]", k)
	}
	if got := readerModel(events, k, 10); got != 100*ms {
		t.Errorf("perceived = %v, want ttft 100ms (no waiting)", got)
	}
	// A slow stream: one token every 500ms; the reader waits 400ms per token.
	events = []outputEvent{{at: 200 * ms, chars: 1}, {at: 700 * ms, chars: 1}, {at: 1200 * ms, chars: 1}}
	if got, want := readerModel(events, spreadTokens(events, 0), 10), (200+800)*ms; got != want {
		t.Errorf("perceived = %v, want %v", got, want)
	}
}

func TestPerceivedGrowsWithStall(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, sim.Profile{
			TTFT:   sim.Fixed(50 * time.Millisecond),
			ITL:    sim.Fixed(time.Millisecond),
			Tokens: 10,
			Quirks: sim.Quirks{NoUsage: true}, // one token per event
			Faults: sim.Faults{StallRate: 1, StallAfter: 5, StallFor: 900 * time.Millisecond},
		})
		rec := do(t, srv, nil, 0)
		if !rec.OK {
			t.Fatalf("request failed: %s", rec.Error)
		}
		// Tokens 1-5 arrive at 50-54ms and are read by 550ms; token 6
		// arrives at 955ms: the reader waits 405ms, so perceived = 50 +
		// 405 = 455ms.
		exactly(t, "perceived", rec.Perceived, 455*time.Millisecond)
		exactly(t, "max_stall", rec.MaxStall, 901*time.Millisecond)
		exactly(t, "total", rec.Total, 959*time.Millisecond)
	})
}

func TestEventCountedTokensWithoutUsage(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, sim.Profile{TTFT: sim.Fixed(time.Millisecond), ITL: sim.Fixed(0), Tokens: 12,
			Quirks: sim.Quirks{NoUsage: true, TokensPerEvent: 3}})
		rec := do(t, srv, nil, 0)
		if !rec.OK || rec.OutputTokens != 4 || rec.TokensSource != "events" {
			t.Errorf("got ok=%v tokens=%d source=%q err=%q, want 4 events counted", rec.OK, rec.OutputTokens, rec.TokensSource, rec.Error)
		}
	})
}

func TestQuirksAndFaults(t *testing.T) {
	t.Parallel()
	base := sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(time.Millisecond), Tokens: 16}
	with := func(f func(*sim.Profile)) sim.Profile { p := base; f(&p); return p }
	type quirkCase struct {
		name    string
		profile sim.Profile
		ok      bool
		errHas  string
		check   func(t *testing.T, r Record)
		// took, if set, is how long the request takes on virtual time.
		took time.Duration
	}
	tests := []quirkCase{
		{name: "plain", profile: base, ok: true},
		{name: "crlf", profile: with(func(p *sim.Profile) { p.Quirks.CRLF = true }), ok: true},
		{name: "data without space", profile: with(func(p *sim.Profile) { p.Quirks.NoSpace = true }), ok: true},
		{name: "multi-line data", profile: with(func(p *sim.Profile) { p.Quirks.MultiLineData = true }), ok: true},
		{name: "400 keep-alives before first token", profile: with(func(p *sim.Profile) { p.Quirks.KeepAlives = 400; p.Quirks.RoleChunk = true }), ok: true,
			check: func(t *testing.T, r Record) { exactly(t, "ttft", r.TTFT, 20*time.Millisecond) }},
		{name: "azure content-filter first chunk", profile: with(func(p *sim.Profile) { p.Quirks.AzureFilterChunk = true }), ok: true,
			check: func(t *testing.T, r Record) {
				if r.FirstEvent >= r.TTFT {
					t.Errorf("first_event %v should precede ttft %v", r.FirstEvent, r.TTFT)
				}
			}},
		{name: "reasoning before content", profile: with(func(p *sim.Profile) {
			p.Quirks.ReasoningTokens = 8
			p.ITL = sim.Fixed(5 * time.Millisecond)
		}), ok: true,
			check: func(t *testing.T, r Record) {
				exactly(t, "ttft", r.TTFT, 20*time.Millisecond)
				exactly(t, "ttfc", r.TTFC, 20*time.Millisecond+8*5*time.Millisecond)
				if r.OutputTokens != 24 {
					t.Errorf("output_tokens = %d, want 24 (8 reasoning + 16)", r.OutputTokens)
				}
			}},
		{name: "tool-call deltas", profile: with(func(p *sim.Profile) { p.Quirks.ToolCall = true }), ok: true,
			check: func(t *testing.T, r Record) {
				if r.TTFC != Missing {
					t.Errorf("ttfc = %v, want missing (no visible content)", r.TTFC)
				}
			}},
		{name: "no usage", profile: with(func(p *sim.Profile) { p.Quirks.NoUsage = true }), ok: true,
			check: func(t *testing.T, r Record) {
				if r.TokensSource != "events" || r.OutputTokens != 16 {
					t.Errorf("tokens %d from %q, want 16 from events", r.OutputTokens, r.TokensSource)
				}
			}},
		{name: "cached tokens reported", profile: with(func(p *sim.Profile) { p.Quirks.CachedTokens = 3 }), ok: true,
			check: func(t *testing.T, r Record) {
				if r.CachedTokens != 3 || r.PromptTokens == 0 {
					t.Errorf("cached %d of %d prompt tokens, want 3", r.CachedTokens, r.PromptTokens)
				}
			}},
		{name: "EOF after finish_reason without [DONE]", profile: with(func(p *sim.Profile) { p.Quirks.NoDone = true }), ok: true},
		{name: "gzip", profile: with(func(p *sim.Profile) { p.Quirks.Gzip = true }), ok: true},
		{name: "byte-by-byte trickle", profile: with(func(p *sim.Profile) { p.Quirks.Trickle = true }), ok: true},
		// Building and sending a 1 MiB line takes no virtual time, however
		// loaded the machine: the 300 ms stall timeout holds.
		{name: "very long line", profile: with(func(p *sim.Profile) { p.Quirks.LongLine = 1 << 20 }), ok: true,
			check: func(t *testing.T, r Record) { exactly(t, "ttft", r.TTFT, 20*time.Millisecond) }},
		{name: "truncated stream", profile: with(func(p *sim.Profile) { p.Faults.TruncateRate = 1 }), errHas: "truncated"},
		{name: "connection closed mid-line", profile: with(func(p *sim.Profile) { p.Faults.MidLineRate = 1 }), errHas: "connection closed"},
		{name: "malformed JSON", profile: with(func(p *sim.Profile) { p.Faults.MalformedRate = 1 }), errHas: "malformed JSON"},
		{name: "error inside the stream", profile: with(func(p *sim.Profile) { p.Faults.StreamErrRate = 1 }), errHas: "error inside the stream: The server had an error"},
		{name: "zero output tokens", profile: with(func(p *sim.Profile) { p.Faults.ZeroTokens = true }), errHas: "no output tokens"},
		{name: "stall after some tokens", profile: with(func(p *sim.Profile) {
			p.Faults = sim.Faults{StallRate: 1, StallAfter: 4, StallFor: 5 * time.Second}
		}), errHas: "stalled: no data for 300ms (stall_timeout) after 4 output events",
			// The 4th output at 23ms, then 300ms without a byte.
			took: 323 * time.Millisecond},
		{name: "429 with Retry-After", profile: with(func(p *sim.Profile) {
			p.Faults = sim.Faults{ErrorRate: 1, ErrorStatus: 429, RetryAfter: "7"}
		}), errHas: "HTTP 429 Too Many Requests: The server is overloaded (simulated 429). [server_error] (Retry-After: 7)"},
	}
	for _, status := range []int{401, 404, 429, 500, 502, 503} {
		tests = append(tests,
			quirkCase{name: fmt.Sprintf("HTTP %d JSON", status), profile: with(func(p *sim.Profile) { p.Faults = sim.Faults{ErrorRate: 1, ErrorStatus: status} }),
				errHas: fmt.Sprintf("HTTP %d %s: The server is overloaded", status, http.StatusText(status))},
			quirkCase{name: fmt.Sprintf("HTTP %d HTML", status), profile: with(func(p *sim.Profile) { p.Faults = sim.Faults{ErrorRate: 1, ErrorStatus: status, HTMLError: true} }),
				errHas: fmt.Sprintf("HTTP %d %s: HTML error page: %d %s", status, http.StatusText(status), status, http.StatusText(status))},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { checkQuirk(t, tt.profile, tt.ok, tt.errHas, tt.took, tt.check) })
		})
	}
}

// checkQuirk probes a simulator with profile (stall timeout 300ms, timeout
// 8s; a probe that hangs is a deadlock the bubble reports) and checks the
// record.
func checkQuirk(t *testing.T, profile sim.Profile, ok bool, errHas string, took time.Duration, check func(*testing.T, Record)) {
	srv := serve(t, profile)
	start := time.Now()
	rec := do(t, srv, &Prober{StallTimeout: 300 * time.Millisecond, Timeout: 8 * time.Second}, 0)
	if took > 0 {
		exactly(t, "request time", time.Since(start), took)
	}
	if rec.OK != ok {
		t.Fatalf("ok = %v, want %v (error %q)", rec.OK, ok, rec.Error)
	}
	if errHas != "" && !strings.Contains(rec.Error, errHas) {
		t.Errorf("error = %q, want it to contain %q", rec.Error, errHas)
	}
	if ok {
		if rec.Error != "" {
			t.Errorf("error = %q on an ok record", rec.Error)
		}
		if rec.TTFT <= 0 || rec.Total < rec.TTFT {
			t.Errorf("ttft %v, total %v: want 0 < ttft <= total", rec.TTFT, rec.Total)
		}
	}
	if check != nil {
		check(t, rec)
	}
}

func TestAPIKeyRedactedFromErrors(t *testing.T) {
	t.Parallel()
	s := sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)
	s.APIKey = "sk-right-key"
	srv := httptest.NewServer(s)
	defer srv.Close()
	p := &Prober{Client: srv.Client(), Secrets: redact.New("sk-test-123456")}
	rec := p.Do(context.Background(), Request{URL: srv.URL + "/v1/chat/completions", Body: body(t, 0), APIKey: "sk-test-123456"})
	if rec.OK || rec.Status != 401 {
		t.Fatalf("want a 401 failure, got ok=%v status=%d", rec.OK, rec.Status)
	}
	if strings.Contains(rec.Error, "sk-test-123456") || !strings.Contains(rec.Error, "Incorrect API key provided: ***") {
		t.Errorf("error = %q, want the echoed key replaced by ***", rec.Error)
	}
}

// TestErrorCutKeepsNoPartOfAKey: a provider's error text is cut to 200
// bytes; a key that straddles the cut is hidden before it, so the record
// keeps no first characters of it.
func TestErrorCutKeepsNoPartOfAKey(t *testing.T) {
	t.Parallel()
	const key = "sk-test-0123456789abcdefghij"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, strings.Repeat("x", 190)+" key "+key+" is not valid")
	}))
	defer srv.Close()
	p := &Prober{Client: srv.Client(), Secrets: redact.New(key)}
	rec := p.Do(context.Background(), Request{URL: srv.URL + "/v1/chat/completions", Body: body(t, 0), APIKey: key})
	if strings.Contains(rec.Error, "sk-test") || !strings.Contains(rec.Error, " key ***") {
		t.Errorf("error = %q, want the key hidden before the cut", rec.Error)
	}
}

func TestNonStreamingResponseIsAClearError(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"message":{"content":"hi"}}]}`)
		}))
		rec := do(t, srv, nil, 0)
		if rec.OK || !strings.Contains(rec.Error, "expected an SSE stream") {
			t.Errorf("got ok=%v error=%q", rec.OK, rec.Error)
		}
	})
}

func TestTimeoutBoundsTheRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, sim.Profile{TTFT: sim.Fixed(10 * time.Second), Tokens: 1})
		start := time.Now()
		rec := do(t, srv, &Prober{Timeout: 200 * time.Millisecond}, 0)
		exactly(t, "request time", time.Since(start), 200*time.Millisecond)
		if rec.OK || !strings.HasPrefix(rec.Error, "timeout: request took longer than 200ms") {
			t.Errorf("got ok=%v error=%q", rec.OK, rec.Error)
		}
	})
}

// TestReusedConnectionHasNoNetworkTime: the first request pays the connect
// time (3ms on the in-memory loopback) before its first byte; the second
// reuses the connection and pays nothing.
func TestReusedConnectionHasNoNetworkTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, sim.Profile{TTFT: sim.Fixed(time.Millisecond), Tokens: 2})
		srv.Connect = 3 * time.Millisecond
		p := &Prober{Client: srv.Client()}
		first := do(t, srv, p, 0)
		second := do(t, srv, p, 0)
		if first.Reused || !second.Reused || second.DNS != 0 || second.TLS != 0 {
			t.Errorf("reused %v then %v, second dns %v tls %v; want a new connection, then a reused one with zero network time", first.Reused, second.Reused, second.DNS, second.TLS)
		}
		exactly(t, "first connect", first.Connect, 3*time.Millisecond)
		exactly(t, "first ttfb", first.TTFB, 3*time.Millisecond)
		exactly(t, "first ttft", first.TTFT, 4*time.Millisecond)
		exactly(t, "second connect", second.Connect, 0)
		exactly(t, "second ttfb", second.TTFB, 0)
		exactly(t, "second ttft", second.TTFT, time.Millisecond)
		exactly(t, "second start", second.Start.Sub(first.Start), first.Total)
	})
}

// TestReaderModel checks the reader model over a timeline whose every
// event is visible (docs/metrics.md's worked timeline, which has hidden
// reasoning events too, is checked by TestDerive's "worked timeline").
func TestReaderModel(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	events := []outputEvent{{at: 400 * ms, chars: 3}, {at: 420 * ms, chars: 3}, {at: 700 * ms, chars: 3}, {at: 710 * ms, chars: 3}, {at: 1400 * ms, chars: 3}, {at: 1410 * ms, chars: 3}}
	k := spreadTokens(events, 6)
	for i, v := range k {
		if v != 1 {
			t.Fatalf("event %d carries %v tokens, want 1", i, v)
		}
	}
	if got := readerModel(events, k, 10); got != 1000*ms {
		t.Errorf("perceived = %v, want 1000ms", got)
	}
	if tpot := (events[5].at - events[0].at) / 5; tpot != 202*ms {
		t.Errorf("tpot = %v, want 202ms", tpot)
	}
}
