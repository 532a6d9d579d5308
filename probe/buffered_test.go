package probe

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// streamed is n content events, the first at first, one every gap; each
// arrives at the read that took it: at the next multiple of every (0:
// as it came).
func streamed(first, gap time.Duration, n int, every time.Duration) []event {
	evs := make([]event, n)
	for i := range evs {
		evs[i] = event{at: readAt(first+time.Duration(i)*gap, every), content: 4}
	}
	return evs
}

// readAt is when a client that reads every every reads bytes sent at at.
func readAt(at, every time.Duration) time.Duration {
	if every == 0 {
		return at
	}
	return (at/every + 1) * every
}

// together is n events of the given kind that came in one read at at
// (a microsecond apart: the client's decoding).
func together(at time.Duration, n int, ev event) []event {
	evs := make([]event, n)
	for i := range evs {
		evs[i] = ev
		evs[i].at = at + time.Duration(i)*time.Microsecond
	}
	return evs
}

func join(parts ...[]event) []event {
	var all []event
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// TestArrivedBuffered: the judgement on the shapes a stream arrives in.
// An answer held by a proxy is buffered, read in one piece or two; an
// honest stream is not, however late a loaded client read it (three
// events a read, or half an answer at once after a sleep), and neither
// is what cannot tell: a short answer in one read, tool calls and
// reasoning in one read, a fast answer after a long wait.
func TestArrivedBuffered(t *testing.T) {
	t.Parallel()
	role := []event{{at: 20 * ms}}
	content := event{content: 4}
	tool := event{tool: 8}
	step := []event{{at: 600 * ms, step: true}}
	tests := []struct {
		name  string
		tl    timeline
		want  bool
		shape string // of the last answer
	}{
		{"a streaming model", timeline{events: join(role, streamed(350*ms, 15*ms, 32, 0))}, false, ""},
		{"read by a loaded client every 40ms: three events a read", timeline{events: join(role, streamed(350*ms, 15*ms, 32, 40*ms))}, false, ""},
		{"half the answer at once after a sleep, then the rest at once",
			timeline{events: join(role, together(400*ms, 32, content), together(656*ms, 32, content))}, false, ""},
		{"held by a proxy: all of it after the wait", timeline{events: join(together(830*ms, 33, content))}, true, ""},
		{"held, read in two pieces (the client descheduled between two reads)",
			timeline{events: join(together(830*ms, 17, content), together(834*ms, 16, content))}, true, "33 events in 2 bursts"},
		{"a short answer in one read", timeline{events: join(role, together(350*ms, BufferedEvents-1, content))}, false, ""},
		{"tool-call arguments in one read, not judged: the answer streamed",
			timeline{session: true, sends: []time.Duration{0, 600 * ms}, events: join(role, together(350*ms, 40, tool), step, streamed(900*ms, 15*ms, 32, 0))}, false, ""},
		{"tool calls streamed, the answer held",
			timeline{session: true, sends: []time.Duration{0, 600 * ms}, events: join(role, streamed(350*ms, 15*ms, 4, 0), step, together(1400*ms, 32, content))}, true, ""},
		{"a server-driven agent held whole: its steps and answer in one read",
			timeline{session: true, events: join(together(2*time.Second, 5, tool), together(2*time.Second+time.Millisecond, 1, event{step: true}), together(2*time.Second+2*time.Millisecond, 32, content))}, true, ""},
		{"reasoning in one read, the answer streamed",
			timeline{events: join(role, together(300*ms, 40, event{reasoning: 5}), streamed(310*ms, 15*ms, 32, 0))}, false, ""},
		{"a fast answer after a long wait (hidden reasoning)", timeline{events: join(role, streamed(10*time.Second, 2*ms, 64, 0))}, false, ""},
		{"nothing", timeline{}, false, ""},
	}
	for _, tt := range tests {
		tt.tl.end = Missing
		if n := len(tt.tl.events); n > 0 {
			tt.tl.end = tt.tl.events[n-1].at
		}
		if got := derive(tt.tl, 10).Buffered(); got != tt.want {
			t.Errorf("%s: Buffered() = %v, want %v (answers %+v)", tt.name, got, tt.want, answerShapes(tt.tl.events, tt.tl.sends))
		}
		if a := answerShapes(tt.tl.events, tt.tl.sends); tt.shape != "" && fmt.Sprintf("%d events in %d bursts", a[len(a)-1].events, a[len(a)-1].bursts) != tt.shape {
			t.Errorf("%s: answers %+v, want %s", tt.name, a, tt.shape)
		}
	}
}

// simAPIs are the APIs the simulator speaks that the probe reads, with
// where each is served; tools: a client-driven tool loop (the rest answer
// plain requests; ai-sdk runs the simulator's own tools).
var simAPIs = []struct {
	api   API
	base  string
	tools bool
}{
	{Chat, "/v1", true}, {Azure, "/openai/deployments/d", true}, {Responses, "/v1", true}, {Anthropic, "", true},
	{Gemini, "/v1beta", true}, {Ollama, "", true}, {AISDK, "/api/chat", false}, {Custom, "/api/chat", false}, {Realtime, "/v1", false},
}

// simRequest is a request of api to the simulator at url: the README's
// agent session (lookup_order, a 150ms tool) where the API has tools, else
// a plain request.
func simRequest(t *testing.T, api API, url string, tools bool) Request {
	t.Helper()
	msgs := []Message{{Role: "user", Content: "Where is order 42?"}}
	target := Target{BaseURL: url, URL: url, Model: "m", APIVersion: "2024-10-21"}
	switch api {
	case Realtime:
		target.BaseURL = strings.Replace(url, "http://", "ws://", 1)
	case Custom:
		b, _ := Body(Ollama, BodyParams{Model: "m", Messages: msgs})
		return Request{API: Custom, URL: url, Body: b, Stream: &StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done", OutputTokens: "/eval_count"}}
	}
	req := Request{API: api, URL: URL(api, target)}
	switch {
	case tools:
		req.Session = &Session{MaxSteps: 8,
			Params: BodyParams{Model: "m", Messages: msgs, Tools: []ToolSpec{{Name: "lookup_order", Parameters: []byte(`{"type":"object","properties":{"id":{"type":"string"}}}`)}}},
			Tools:  map[string]Tool{"lookup_order": {Result: `{"status":"shipped","eta":"2026-12-03"}`, Latency: 150 * ms}}}
	case api == AISDK:
		req.Session = &Session{MaxSteps: 8, Params: BodyParams{Model: "m", Messages: msgs}}
	default:
		b, err := Body(api, BodyParams{Model: "m", Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		req.Body = b
	}
	return req
}

// buffering sends n requests of every simulator API (or those of only)
// at once to the simulator at profile p, each API on a server serve
// starts (it returns the server's client and URL), and returns by API how
// many succeeded and how many of those were judged buffered.
func buffering(t *testing.T, p sim.Profile, n int, serve func(http.Handler) (*http.Client, string), only ...API) map[API][2]int {
	got := map[API][2]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, a := range simAPIs {
		if len(only) > 0 && !slices.Contains(only, a.api) {
			continue
		}
		client, url := serve(sim.New(p, 3))
		for range n {
			req := simRequest(t, a.api, url+a.base, a.tools)
			wg.Go(func() {
				rec := (&Prober{Client: client, Timeout: time.Minute}).Do(context.Background(), req)
				if !rec.OK {
					return // the flaky profile's faults
				}
				mu.Lock()
				defer mu.Unlock()
				c := got[a.api]
				c[0]++
				if rec.Buffered() {
					c[1]++
				}
				got[a.api] = c
			})
		}
	}
	wg.Wait()
	return got
}

// TestBufferedOnEverySimProfile: on every profile of the simulator, 8
// requests at once of every API it speaks (the README's agent session
// where the API has tools: its tool steps, then the answer; the AI SDK
// route's steps; reasoning first on the reasoning profile), no honest
// stream is judged buffered, though a loaded client read it (it gets the
// CPU every 40ms: a few events a read), and every stream through a
// buffering proxy (the Buffered quirk) is, 2 of each API at once. On
// virtual time.
func TestBufferedOnEverySimProfile(t *testing.T) {
	t.Parallel()
	for _, name := range sim.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				for _, held := range []bool{false, true} {
					p, err := sim.Named(name)
					if err != nil {
						t.Fatal(err)
					}
					p.Quirks.Buffered = held
					n := 8 // at once: a loaded client reading 8 streams
					if held {
						n = 2 // held whole, at any concurrency
					}
					got := buffering(t, p, n, func(h http.Handler) (*http.Client, string) {
						srv := clocktest.NewServer(t, h)
						if !held {
							srv.ReadEvery = 40 * ms
						}
						return srv.Client(), srv.URL
					})
					for _, a := range simAPIs {
						c := got[a.api]
						if want := map[bool]int{false: 0, true: c[0]}[held]; c[0] == 0 || c[1] != want {
							t.Errorf("buffered %v: %s: %d of %d streams judged buffered, want %d", held, a.api, c[1], c[0], want)
						}
					}
				}
			})
		})
	}
}

// TestBufferedOnLoopback: the same on a real loopback, on the default
// profile: the README's agent session on chat and the AI SDK route's, 8
// of each at once. A client starved for longer than an answer takes (the
// simulator beside it too: they share the process) gets its bytes at the
// times a buffering proxy gives them, so the test asks what holds beside
// 20 CPU hogs: fewer than a quarter of the honest streams judged buffered
// (measured at load average 19 to 35: 0 of 16 in 15 runs of 16, 3 in
// one), three quarters or more of the held ones (13 to 16 of 16); a run's
// warning needs half. Real clock: holds at load average 27–29 on 2 cores
// (8 of 8 runs, 3 of them with -race, 2026-12-04: 0 of 16 honest streams
// judged buffered, 16 of 16 held ones, in each).
func TestBufferedOnLoopback(t *testing.T) {
	t.Parallel()
	p, err := sim.Named("realistic")
	if err != nil {
		t.Fatal(err)
	}
	for _, held := range []bool{false, true} {
		p.Quirks.Buffered = held
		got := buffering(t, p, 8, func(h http.Handler) (*http.Client, string) {
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			return srv.Client(), srv.URL
		}, Chat, AISDK)
		total, buffered := 0, 0
		for _, c := range got {
			total, buffered = total+c[0], buffered+c[1]
		}
		t.Logf("buffered %v: %d of %d streams judged buffered", held, buffered, total)
		if total != 16 || (!held && 4*buffered >= total) || (held && 4*buffered < 3*total) {
			t.Errorf("buffered %v: %d of %d streams judged buffered (%v)", held, buffered, total, got)
		}
	}
}
