package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func streamText(t *testing.T, url string) string {
	resp := post(t, url, `{"model":"m","stream":true,"max_tokens":8,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`)
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
	}
	return b.String()
}

func TestSeededAndReproducible(t *testing.T) {
	t.Parallel()
	p := Profile{TTFT: LogNormal(time.Millisecond, 0.5), ITL: Fixed(0), Tokens: 30}
	a := httptest.NewServer(New(p, 5))
	b := httptest.NewServer(New(p, 5))
	c := httptest.NewServer(New(p, 6))
	defer a.Close()
	defer b.Close()
	defer c.Close()
	sa, sb, sc := streamText(t, a.URL), streamText(t, b.URL), streamText(t, c.URL)
	if sa != sb {
		t.Error("the same seed gave different streams")
	}
	if sa == sc {
		t.Error("different seeds gave the same stream")
	}
	for _, want := range []string{`"finish_reason":"length"`, `"usage":{"prompt_tokens":`, `"completion_tokens":8`, "data: [DONE]"} {
		if !strings.Contains(sa, want) {
			t.Errorf("stream lacks %s:\n%s", want, sa)
		}
	}
}

func TestDistributions(t *testing.T) {
	t.Parallel()
	r := newRand(1)
	d := LogNormal(100*time.Millisecond, 0.3).WithSpikes(0.1, time.Second, 2*time.Second)
	spikes, below := 0, 0
	for range 10000 {
		v := d.Sample(r)
		if v >= time.Second {
			spikes++
		}
		if v < 100*time.Millisecond {
			below++
		}
	}
	if spikes < 900 || spikes > 1100 {
		t.Errorf("%d of 10000 draws were spikes, want about 1000", spikes)
	}
	if below < 4300 || below > 4700 { // half the body, minus the spikes
		t.Errorf("%d of 10000 draws below the median, want about 4500", below)
	}
	if Fixed(5*time.Millisecond).Sample(r) != 5*time.Millisecond {
		t.Error("Fixed is not fixed")
	}
}

func TestNonStreamingAndModels(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New(Profile{Tokens: 4}, 1))
	defer srv.Close()
	resp := post(t, srv.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	var out struct {
		Choices []struct{ Message struct{ Content string } }
		Usage   struct {
			CompletionTokens int `json:"completion_tokens"`
		}
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if len(out.Choices) != 1 || len(strings.Fields(out.Choices[0].Message.Content)) != 4 || out.Usage.CompletionTokens != 4 {
		t.Errorf("non-streaming answer: %+v", out)
	}
	mr, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	var models struct{ Data []struct{ ID string } }
	_ = json.NewDecoder(mr.Body).Decode(&models)
	mr.Body.Close()
	if len(models.Data) != len(ProfileNames()) {
		t.Errorf("models: %+v", models)
	}
	bad := post(t, srv.URL, `{not json`)
	bad.Body.Close()
	if bad.StatusCode != 400 {
		t.Errorf("bad JSON: status %d, want 400", bad.StatusCode)
	}
}

// TestStopsWhenClientGoesAway: a 1000-token stream takes 50s; the client
// leaves after the first line and the handler returns at that moment.
func TestStopsWhenClientGoesAway(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := New(Profile{TTFT: Fixed(0), ITL: Fixed(50 * time.Millisecond), Tokens: 1000}, 1)
		done := make(chan time.Time)
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.ServeHTTP(w, r)
			done <- time.Now()
		}))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/chat/completions",
			strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = bufio.NewReader(resp.Body).ReadString('\n')
		time.Sleep(120 * time.Millisecond) // 3 tokens in
		left := time.Now()
		cancel()
		resp.Body.Close()
		if ended := <-done; ended != left {
			t.Errorf("the handler ended %v after the client left, want at once", ended.Sub(left))
		}
	})
}

func TestNamedProfiles(t *testing.T) {
	t.Parallel()
	for _, n := range []string{"agent", "engine", "fast", "slow", "flaky", "realistic", "reasoning"} {
		if p, err := Named(n); err != nil || p.Name != n {
			t.Errorf("Named(%q) = %v, %v", n, p.Name, err)
		}
	}
	if _, err := Named("warp"); err == nil || !strings.Contains(err.Error(), "known: agent, engine, fast, flaky") {
		t.Errorf("unknown profile error: %v", err)
	}
}

// TestProfilesMeanWhatTheySay: fast < realistic < slow in header delay,
// TTFT and inter-token medians and in the time of a full answer; flaky
// fails, reasoning reasons.
func TestProfilesMeanWhatTheySay(t *testing.T) {
	t.Parallel()
	median := func(d Dist) time.Duration {
		r := newRand(3)
		xs := make([]time.Duration, 4001)
		for i := range xs {
			xs[i] = d.Sample(r)
		}
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	type speeds struct{ header, ttft, itl, answer time.Duration }
	of := func(name string) speeds {
		p, err := Named(name)
		if err != nil {
			t.Fatal(err)
		}
		s := speeds{header: p.HeaderDelay, ttft: median(p.TTFT), itl: median(p.ITL)}
		s.answer = s.ttft + time.Duration(p.Tokens-1)*s.itl
		return s
	}
	order := []string{"fast", "realistic", "slow"}
	for i := 1; i < len(order); i++ {
		a, b := of(order[i-1]), of(order[i])
		if !(a.header <= b.header && a.ttft < b.ttft && a.itl < b.itl && a.answer < b.answer) {
			t.Errorf("%s %+v is not faster than %s %+v", order[i-1], a, order[i], b)
		}
	}
	if p, _ := Named("flaky"); p.Faults.ErrorRate == 0 || p.Faults.TruncateRate == 0 || p.Faults.StallRate == 0 {
		t.Errorf("flaky injects no faults: %+v", p.Faults)
	}
	if p, _ := Named("reasoning"); p.Quirks.ReasoningTokens == 0 {
		t.Error("reasoning streams no reasoning")
	}
	if p, _ := Named("agent"); p.ToolSteps < 2 || p.ToolCalls < 2 || !p.Quirks.PrefixCache {
		t.Errorf("agent makes %d steps of %d calls, prefix cache %v", p.ToolSteps, p.ToolCalls, p.Quirks.PrefixCache)
	}
	for i := 1; i < len(order); i++ {
		if a, b := profiles[order[i-1]], profiles[order[i]]; a.ToolSteps == 0 || a.ToolLatency >= b.ToolLatency {
			t.Errorf("%s's tools (%d steps, %v) are not faster than %s's (%v)", a.Name, a.ToolSteps, a.ToolLatency, b.Name, b.ToolLatency)
		}
	}
	for _, n := range ProfileNames() {
		if p, _ := Named(n); p.Speed != (Speed{}) {
			t.Errorf("built-in profile %s changes speed over time: %+v", n, p.Speed)
		}
	}
}

func TestSpeedFactor(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		name    string
		speed   Speed
		elapsed time.Duration
		want    float64
	}{
		{"none", Speed{}, 7 * s, 1},
		{"30% slower", Speed{Slowdown: 0.3}, 7 * s, 1.3},
		{"twice as fast", Speed{Slowdown: -0.5}, 0, 0.5},
		{"swing at the start", Speed{Swing: 0.4, SwingPeriod: 4 * s}, 0, 1},
		{"swing at its slowest", Speed{Swing: 0.4, SwingPeriod: 4 * s}, s, 1.4},
		{"swing back through 1", Speed{Swing: 0.4, SwingPeriod: 4 * s}, 2 * s, 1},
		{"swing at its fastest", Speed{Swing: 0.4, SwingPeriod: 4 * s}, 3 * s, 0.6},
		{"swing and slowdown multiply", Speed{Swing: 0.4, SwingPeriod: 4 * s, Slowdown: 0.3}, s, 1.3 * 1.4},
		{"swing without a period does nothing", Speed{Swing: 0.4}, s, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.speed.Factor(tt.elapsed); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Factor(%v) = %v, want %v", tt.elapsed, got, tt.want)
			}
		})
	}
	sw := Speed{Swing: 0.4, SwingPeriod: 4 * s}
	if got := sw.FactorAt(time.Unix(1000, 0).Add(s)); math.Abs(got-1.4) > 1e-9 {
		t.Errorf("FactorAt one second into a 4s period = %v, want 1.4 (phase from the wall clock)", got)
	}
	if got := (Speed{Slowdown: 0.3}).FactorAt(time.Unix(1234, 567)); got != 1.3 {
		t.Errorf("FactorAt without swing = %v, want 1.3", got)
	}
	for _, bad := range []Speed{{Slowdown: -1}, {Swing: 1, SwingPeriod: s}, {Swing: -0.1, SwingPeriod: s}, {Swing: 0.2}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if err := (Speed{Swing: 0.4, SwingPeriod: 3 * s, Slowdown: 0.3}).Validate(); err != nil {
		t.Error(err)
	}
}

// TestSpeedScalesEveryDelay: the same seed at speed 1.3 gives every delay
// of the plan 1.3 times as long.
func TestSpeedScalesEveryDelay(t *testing.T) {
	t.Parallel()
	p := Profile{HeaderDelay: 10 * time.Millisecond, TTFT: LogNormal(100*time.Millisecond, 0.3), ITL: LogNormal(10*time.Millisecond, 0.3), Tokens: 20}
	a, b := p.draw(newRand(1), request{}, 1), p.draw(newRand(1), request{}, 1.3)
	near := func(x, y time.Duration) bool { return math.Abs(float64(y)-1.3*float64(x)) <= 1 }
	if !near(a.header, b.header) || !near(a.ttft, b.ttft) {
		t.Errorf("header %v→%v, ttft %v→%v; want ×1.3", a.header, b.header, a.ttft, b.ttft)
	}
	ga, gb := a.drawGaps(20), b.drawGaps(20)
	for i := range ga {
		if !near(ga[i], gb[i]) {
			t.Errorf("gap %d: %v→%v, want ×1.3", i, ga[i], gb[i])
		}
	}
	if ta, tb := a.nextTTFT(), b.nextTTFT(); !near(ta, tb) {
		t.Errorf("a later step's ttft %v→%v, want ×1.3", ta, tb)
	}
	if strings.Join(a.words, "") != strings.Join(b.words, "") {
		t.Error("the speed changed the words")
	}
}

// TestTTFTSlowdown: a TTFT slowdown scales every step's time to first
// output, on top of the speed, and no other delay.
func TestTTFTSlowdown(t *testing.T) {
	t.Parallel()
	p := Profile{HeaderDelay: 10 * time.Millisecond, TTFT: LogNormal(100*time.Millisecond, 0.3), ITL: LogNormal(10*time.Millisecond, 0.3), Tokens: 20}
	q := p
	q.Speed.TTFTSlowdown = 0.2
	a, b := p.draw(newRand(1), request{}, 1.5), q.draw(newRand(1), request{}, 1.5)
	near := func(x, y time.Duration, f float64) bool { return math.Abs(float64(y)-f*float64(x)) <= 1 }
	if a.header != b.header || !near(a.ttft, b.ttft, 1.2) {
		t.Errorf("header %v→%v, ttft %v→%v; want the header as it was, the ttft ×1.2", a.header, b.header, a.ttft, b.ttft)
	}
	if ga, gb := a.drawGaps(20), b.drawGaps(20); fmt.Sprint(ga) != fmt.Sprint(gb) {
		t.Errorf("gaps %v → %v: want them as they were", ga, gb)
	}
	if ta, tb := a.nextTTFT(), b.nextTTFT(); !near(ta, tb, 1.2) {
		t.Errorf("a later step's ttft %v→%v, want ×1.2", ta, tb)
	}
	if err := (Speed{TTFTSlowdown: -1}).Validate(); err == nil {
		t.Error("a TTFT slowdown of -1 validated")
	}
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, path string
		want         api
		ok           bool
	}{
		{"POST", "/v1/chat/completions", apiChat, true},
		{"POST", "/v1/responses", apiResponses, true},
		{"POST", "/v1/messages", apiAnthropic, true},
		{"POST", "/v1beta/models/gemini-2.5-flash:streamGenerateContent", apiGemini, true},
		{"POST", "/openai/deployments/gpt4o/chat/completions", apiAzure, true},
		{"POST", "/api/chat", apiOllama, true},
		{"GET", "/v1/realtime", apiRealtime, true},
		{"GET", "/v1/chat/completions", "", false},
		{"POST", "/v1/completions", "", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		if got, ok := route(r); got != tt.want || ok != tt.ok {
			t.Errorf("%s %s = %q, %v; want %q, %v", tt.method, tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRoutesSaysWhereEachAPIIs: latgate sim's list of where each API is,
// one line per address (APIs described apart on lines of their own).
func TestRoutesSaysWhereEachAPIIs(t *testing.T) {
	t.Parallel()
	want := "  chat, responses: base_url https://h:1/v1\n  anthropic: base_url https://h:1\n  gemini: base_url https://h:1/v1beta\n" +
		"  azure: base_url https://h:1/openai/deployments/NAME\n  ollama (Ollama's native /api/chat, NDJSON): base_url https://h:1\n" +
		"  custom (Ollama's NDJSON read by a stream spec): url https://h:1/api/chat\n" +
		"  ai-sdk (Vercel AI SDK UI message stream, useChat's body): url https://h:1/api/chat\n" +
		"  realtime (OpenAI Realtime API, WebSocket): base_url wss://h:1/v1\n"
	if got := Routes("h:1", true); !strings.HasPrefix(got, want) {
		t.Errorf("Routes:\n%s\nwant it to start with:\n%s", got, want)
	}
	for _, tt := range []struct{ api, want string }{{"chat", "http://h:1/v1"}, {"ollama", "http://h:1"}, {"custom", "http://h:1/api/chat"}, {"ai-sdk", "http://h:1/api/chat"}, {"realtime", "ws://h:1/v1"}} {
		if got, ok := Where(tt.api, "h:1", false); got != tt.want || !ok {
			t.Errorf("Where(%s) = %q, %v; want %q", tt.api, got, ok, tt.want)
		}
	}
	if _, ok := Where("nonesuch", "h:1", false); ok {
		t.Error("Where(nonesuch): the simulator does not speak it")
	}
	if got := Routes("h:1", false); !strings.Contains(got, "chat, responses: base_url http://h:1/v1\n") || !strings.Contains(got, "base_url ws://h:1/v1\n") {
		t.Errorf("Routes without TLS:\n%s", got)
	}
}

// TestEveryAPIStreams reads the raw stream of every API: each has its
// preamble before the first output and its own end.
func TestEveryAPIStreams(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New(Profile{TTFT: Fixed(0), Tokens: 3, Quirks: Quirks{ReasoningTokens: 1}}, 1))
	defer srv.Close()
	tests := []struct {
		path, body      string
		preamble, first string // the preamble precedes the first output
		end             string
	}{
		{"/v1/responses", `{"model":"m","input":"hi","stream":true}`, "event: response.created", "response.reasoning_summary_text.delta", `"type":"response.completed"`},
		{"/v1/messages", `{"model":"m","max_tokens":8,"stream":true,"messages":[{"role":"user","content":"hi"}]}`, "event: ping", "thinking_delta", "event: message_stop"},
		{"/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[{"parts":[{"text":"hi"}]}]}`, `"thoughtSignature"`, `"thought":true`, `"finishReason":"STOP"`},
		{"/openai/deployments/d/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`, `"choices":[]`, `"reasoning_content"`, "data: [DONE]"},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "", `"thinking":" think"`, `"done":true`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Post(srv.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			s := string(b)
			first := strings.Index(s, tt.first)
			if resp.StatusCode != 200 || first < 0 || strings.Index(s, tt.preamble) > first || !strings.Contains(s, tt.end) {
				t.Errorf("status %d; want %q before %q and %q at the end:\n%s", resp.StatusCode, tt.preamble, tt.first, tt.end, s)
			}
		})
	}
}

// arrivals reads a stream and says when each of its data lines arrived,
// from when the request was sent.
func arrivals(t *testing.T, srv *clocktest.Server, path, body string) (headers time.Duration, lines []time.Duration) {
	t.Helper()
	start := time.Now()
	resp, err := srv.Client().Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	headers = time.Since(start)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			lines = append(lines, time.Since(start))
		}
	}
	return headers, lines
}

// TestStreamTimingOnVirtualTime: the simulator sends each event exactly
// when its profile says, on the virtual clock: headers after the header
// delay, the role chunk with them, the first token at the TTFT, then one
// per gap, a stall where it is injected, every delay but the stall scaled
// by the speed.
func TestStreamTimingOnVirtualTime(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	const req = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	p := Profile{HeaderDelay: 10 * ms, TTFT: Fixed(100 * ms), ITL: Fixed(10 * ms), Tokens: 5, Quirks: Quirks{RoleChunk: true},
		Faults: Faults{StallRate: 1, StallAfter: 3, StallFor: 500 * ms}}
	for _, tt := range []struct {
		name  string
		speed Speed
		wait  time.Duration // before the request, from the bubble's start
		f     float64       // the speed factor the request gets
	}{
		{"as drawn", Speed{}, 0, 1},
		{"30% slower", Speed{Slowdown: 0.3}, 0, 1.3},
		// The bubble's clock starts at a whole second: the swing starts
		// a period there, and is at its slowest a quarter period later.
		{"swing at its slowest", Speed{Swing: 0.4, SwingPeriod: 4 * time.Second}, time.Second, 1.4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				q := p
				q.Speed = tt.speed
				srv := clocktest.NewServer(t, New(q, 1))
				time.Sleep(tt.wait)
				d := func(v time.Duration) time.Duration { return time.Duration(float64(v) * tt.f) }
				headers, got := arrivals(t, srv, "/v1/chat/completions", req)
				ttft, gap := d(100*ms), d(10*ms)
				// role chunk, 5 tokens, finish_reason, [DONE]
				want := []time.Duration{d(10 * ms), ttft, ttft + gap, ttft + 2*gap, ttft + 3*gap + 500*ms, ttft + 4*gap + 500*ms}
				want = append(want, want[5], want[5])
				if headers != d(10*ms) || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("headers at %v, data lines at %v; want %v and %v", headers, got, d(10*ms), want)
				}
			})
		})
	}
}

// TestAnswerTimingOnVirtualTime: a non-streaming answer comes whole when
// the stream would have ended.
func TestAnswerTimingOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(Profile{TTFT: Fixed(200 * time.Millisecond), ITL: Fixed(5 * time.Millisecond), Tokens: 9}, 1))
		start := time.Now()
		resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if got, want := time.Since(start), 200*time.Millisecond+8*5*time.Millisecond; got != want {
			t.Errorf("the answer came after %v, want %v", got, want)
		}
	})
}

// TestBothTokenLimits: a chat body limits the answer with
// max_completion_tokens or with max_tokens (which most OpenAI-compatible
// servers still take); the first wins when both are there.
func TestBothTokenLimits(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New(Profile{Tokens: 20}, 1))
	defer srv.Close()
	for _, tt := range []struct {
		limits string
		want   int
	}{{`"max_tokens":5`, 5}, {`"max_completion_tokens":6`, 6}, {`"max_tokens":5,"max_completion_tokens":7`, 7}, {`"max_tokens":0`, 20}} {
		resp := post(t, srv.URL, `{"model":"m",`+tt.limits+`,"messages":[{"role":"user","content":"hi"}]}`)
		var out struct {
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			}
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if out.Usage.CompletionTokens != tt.want {
			t.Errorf("%s: %d tokens, want %d", tt.limits, out.Usage.CompletionTokens, tt.want)
		}
	}
}

// TestModelNamesItsProfile: names mean what they say. A request for model
// "fast" is served at the fast profile, whatever the server's default;
// `latgate sim`'s overrides apply to every profile; a model mapped with
// SetModelProfile keeps its mapping, and any other model gets the default.
func TestModelNamesItsProfile(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	fast, _ := Named("fast")
	fixed := Options{Profile: "realistic", TTFT: 40 * ms}
	s, err := fixed.Server(1)
	if err != nil {
		t.Fatal(err)
	}
	plain := New(Profile{Name: "mine", TTFT: Fixed(7 * ms), Tokens: 3}, 1)
	plain.SetModelProfile("slow", Profile{Name: "mapped"})
	for _, tt := range []struct {
		srv   *Server
		model string
		name  string
		ttft  Dist
	}{
		{plain, "fast", "fast", fast.TTFT},
		{plain, "gpt-4o", "mine", Fixed(7 * ms)},
		{plain, "slow", "mapped", Dist{}},
		{s, "fast", "fast", Fixed(40 * ms)},
		{s, "realistic", "realistic", Fixed(40 * ms)},
		{s, "m", "realistic", Fixed(40 * ms)},
	} {
		if p := tt.srv.profileFor(tt.model); p.Name != tt.name || p.TTFT != tt.ttft {
			t.Errorf("model %q: profile %q with ttft %+v, want %q with %+v", tt.model, p.Name, p.TTFT, tt.name, tt.ttft)
		}
	}
	if _, err := (Options{Profile: "warp"}).Server(1); err == nil {
		t.Error("an unknown profile made a server")
	}
}

// TestModelPinningAProfileIsSaid: latgate init's model: realistic sent
// to a latgate sim --profile slow is served realistic (its name pins the
// profile): the response's headers say which profile answered and the
// server's own, and Warn is told once for that model; a model that names
// no profile, or the server's own, is served the server's profile
// silently. Every API that names its model: chat and the Realtime API.
func TestModelPinningAProfileIsSaid(t *testing.T) {
	t.Parallel()
	s, err := Options{Profile: "slow"}.Server(1)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	s.Warn = func(msg string) { warned = append(warned, msg) } // requests one at a time
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, s)
		get := func(method, path, body string) *http.Response {
			req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp
		}
		for _, tt := range []struct{ model, served string }{{"realistic", "realistic"}, {"realistic", "realistic"}, {"sim", "slow"}, {"slow", "slow"}} {
			resp := get("POST", "/v1/chat/completions", `{"model":"`+tt.model+`","stream":true,"max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`)
			if got, own := resp.Header.Get(ProfileHeader), resp.Header.Get(ServerProfileHeader); got != tt.served || own != "slow" {
				t.Errorf("model %q: %s %q, %s %q; want %q and slow", tt.model, ProfileHeader, got, ServerProfileHeader, own, tt.served)
			}
		}
		// Not an upgrade: refused, after the profile is chosen.
		if got := get("GET", "/v1/realtime?model=fast", "").Header.Get(ProfileHeader); got != "fast" {
			t.Errorf("realtime, model fast: %s %q, want fast", ProfileHeader, got)
		}
	})
	want := []string{
		`requests for model "realistic" are served at the realistic profile, which the model names, not at this server's slow: give the endpoint a model that names no profile (such as sim) to measure slow`,
		`requests for model "fast" are served at the fast profile, which the model names, not at this server's slow: give the endpoint a model that names no profile (such as sim) to measure slow`,
	}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings %q, want %q", warned, want)
	}
}

// TestModelFastServedFast: on virtual time, a server whose default is the
// slow profile answers model "fast" with the fast profile's header delay.
func TestModelFastServedFast(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		slow, _ := Named("slow")
		srv := clocktest.NewServer(t, New(slow, 1))
		for model, want := range map[string]time.Duration{"fast": 5 * time.Millisecond, "m": 30 * time.Millisecond} {
			headers, _ := arrivals(t, srv, "/v1/chat/completions", `{"model":"`+model+`","stream":true,"max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`)
			if headers != want {
				t.Errorf("model %q: headers after %v, want %v", model, headers, want)
			}
		}
	})
}

// TestToolOverrides: latgate sim's tool flags override the profile's keys
// (tool steps even to 0), and bad values are refused.
func TestToolOverrides(t *testing.T) {
	t.Parallel()
	p, err := Options{Profile: "fast", ToolSteps: 0, SetToolSteps: true, ToolCalls: 3, ToolArgs: 40, ToolChunk: 5, ToolLatency: time.Second, PrefixCache: true}.Build()
	if err != nil || p.ToolSteps != 0 || p.ToolCalls != 3 || p.ToolArgs != 40 || p.ToolChunk != 5 || p.ToolLatency != time.Second || !p.Quirks.PrefixCache {
		t.Errorf("%+v, %v", p, err)
	}
	if p, _ := (Options{Profile: "agent"}).Build(); p.ToolSteps != 3 || p.ToolCalls != 2 {
		t.Errorf("no overrides changed agent: %d steps of %d calls", p.ToolSteps, p.ToolCalls)
	}
	for _, bad := range []Options{{ToolSteps: -1, SetToolSteps: true}, {ToolCalls: -1}, {ToolChunk: -2}, {ToolLatency: -time.Second}} {
		bad.Profile = "fast"
		if _, err := bad.Build(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestOptionsEngine: latgate sim's engine flags make every profile an
// engine; a form it does not report is refused.
func TestOptionsEngine(t *testing.T) {
	t.Parallel()
	o := Options{Profile: "realistic", Slots: 2, Engine: &Engine{Front: 15 * time.Millisecond, Report: []string{ReportVLLM, ReportLiteLLM}}}
	p, err := o.Build()
	if err != nil || p.Engine == nil || p.Capacity.Slots != 2 || p.Engine.Front != 15*time.Millisecond || len(p.Engine.Report) != 2 {
		t.Fatalf("%+v, %v", p.Engine, err)
	}
	o.Engine.Report = []string{"sglang"}
	if _, err := o.Build(); err == nil || !strings.Contains(err.Error(), `engine report "sglang": not a form the simulator reports (llama.cpp, vllm, groq, openai, litellm, tgi)`) {
		t.Errorf("an unknown form: %v", err)
	}
	o.Engine = &Engine{Front: -time.Millisecond}
	if _, err := o.Build(); err == nil {
		t.Error("a negative front accepted")
	}
}
