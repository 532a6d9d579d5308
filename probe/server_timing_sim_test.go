package probe

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// engineProfile is a simulated engine on fixed delays: headers at 20 ms,
// the first of 5 tokens at 200 ms (15 ms of it in front of the engine, so
// a prefill of 185 ms), a token every 10 ms (a decode of 40 ms); one slot.
func engineProfile(report ...string) sim.Profile {
	return sim.Profile{Name: "engine", HeaderDelay: 20 * time.Millisecond, TTFT: sim.Fixed(200 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond),
		Tokens: 5, Capacity: sim.Capacity{Slots: 1}, Engine: &sim.Engine{Front: 15 * time.Millisecond, Report: report}}
}

// rawTiming sends one request to the simulator and reads the server
// timing of its response as the probe's readers do, with what was measured
// around it on the virtual clock.
func rawTiming(t *testing.T, srv *clocktest.Server, path, body string, framing framing) (ServerTiming, measured) {
	t.Helper()
	t0 := time.Now()
	resp, err := srv.Client().Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	m := measured{ttfb: time.Since(t0), ttft: Missing}
	r := serverReport{forms: allTimingForms}
	r.readHeaders(resp.Header)
	fr := newFramer(framing, resp.Body)
	for {
		f, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if m.ttft == Missing && strings.Contains(string(f.Data), `"content":" `) {
			m.ttft = time.Since(t0)
		}
		r.readEvent(f.Data)
	}
	m.total = time.Since(t0)
	return r.check(m), m
}

const simChat = `{"model":"engine","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hello there"}]}`

// TestSimulatedServerTiming: each form the simulator reports is read back
// exactly as the latency it injected.
func TestSimulatedServerTiming(t *testing.T) {
	const prefill, decode = 185 * time.Millisecond, 40 * time.Millisecond
	tests := []struct {
		name, path, body string
		framing          framing
		report           []string
		want             ServerTiming
	}{
		{"llama.cpp", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportLlamaCpp},
			ServerTiming{Queue: Missing, Prefill: prefill, Decode: decode, Processing: Missing, Gateway: Missing, Source: "llama.cpp"}},
		{"llama.cpp without a usage chunk", "/v1/chat/completions", strings.Replace(simChat, "true}", "false}", 1), framingSSE, []string{sim.ReportLlamaCpp},
			ServerTiming{Queue: Missing, Prefill: prefill, Decode: decode, Processing: Missing, Gateway: Missing, Source: "llama.cpp"}},
		{"vllm", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportVLLM},
			ServerTiming{Queue: 0, Prefill: prefill, Decode: decode, Processing: Missing, Gateway: Missing, Source: "vllm"}},
		{"groq", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportGroq},
			ServerTiming{Queue: 0, Prefill: prefill, Decode: decode, Processing: prefill + decode, Gateway: Missing, Source: "groq"}},
		{"openai-processing-ms: the time to the headers", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportOpenAI},
			ServerTiming{Queue: Missing, Prefill: Missing, Decode: Missing, Processing: 20 * time.Millisecond, Gateway: Missing, Source: "openai"}},
		{"litellm in front of vllm", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportLiteLLM, sim.ReportVLLM},
			ServerTiming{Queue: 0, Prefill: prefill, Decode: decode, Processing: Missing, Gateway: 15 * time.Millisecond, Source: "vllm+litellm"}},
		{"tgi streams no timing", "/v1/chat/completions", simChat, framingSSE, []string{sim.ReportTGI},
			ServerTiming{Queue: Missing, Prefill: Missing, Decode: Missing, Processing: Missing, Gateway: Missing}},
		{"tgi's headers on an answer not streamed", "/v1/chat/completions", strings.Replace(simChat, `"stream":true`, `"stream":false`, 1), "", []string{sim.ReportTGI},
			ServerTiming{Queue: 0, Prefill: Missing, Decode: Missing, Processing: 240 * time.Millisecond, Gateway: Missing, Source: "tgi"}},
		{"ollama's native durations", "/api/chat", `{"model":"engine","messages":[{"role":"user","content":"hello there"}]}`, framingNDJSON, nil,
			ServerTiming{Queue: 0, Prefill: prefill, Decode: decode, Processing: 240 * time.Millisecond, Gateway: Missing, Source: "ollama"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(engineProfile(tt.report...), 1))
				var got ServerTiming
				if tt.framing == "" {
					got = rawAnswerTiming(t, srv, tt.body)
				} else {
					got, _ = rawTiming(t, srv, tt.path, tt.body, tt.framing)
				}
				if got.Queue != tt.want.Queue || got.Prefill != tt.want.Prefill || got.Decode != tt.want.Decode ||
					got.Processing != tt.want.Processing || got.Gateway != tt.want.Gateway || got.Source != tt.want.Source || got.IgnoredCount != 0 {
					t.Errorf("got  %+v\nwant %+v", got, tt.want)
				}
			})
		})
	}
}

// rawAnswerTiming reads the headers of an answer that is not streamed.
func rawAnswerTiming(t *testing.T, srv *clocktest.Server, body string) ServerTiming {
	t0 := time.Now()
	resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	r := serverReport{forms: allTimingForms}
	r.readHeaders(resp.Header)
	d := time.Since(t0)
	return r.check(measured{ttfb: d, ttft: d, total: d})
}

// TestSimulatedQueue: with one slot, the second of two requests sent 1 ms
// apart waits for the first (240 ms in all), and says so; the outside is
// its TTFT less that wait and the prefill: the 15 ms in front of the
// engine.
func TestSimulatedQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(sim.ReportVLLM), 1))
		var wg sync.WaitGroup
		got := make([]ServerTiming, 2)
		ms := make([]measured, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i) * time.Millisecond)
				got[i], ms[i] = rawTiming(t, srv, "/v1/chat/completions", simChat, framingSSE)
			}()
		}
		wg.Wait()
		exactly(t, "first queue", got[0].Queue, 0)
		exactly(t, "second queue", got[1].Queue, 239*time.Millisecond)
		exactly(t, "second ttft", ms[1].ttft, 439*time.Millisecond)
		exactly(t, "second prefill", got[1].Prefill, 185*time.Millisecond)
		exactly(t, "second outside", got[1].Outside(ms[1].ttft), 15*time.Millisecond)
	})
}

// TestRecordServerTiming: a request's record carries what its API's
// servers report, read from the headers and the stream as it is read,
// and checked against what was measured; a form another API's servers use
// is not read (an openai-processing-ms header on an Anthropic stream).
func TestRecordServerTiming(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api    API
		base   string
		report []string
		want   ServerTiming
	}{
		{Chat, "/v1", []string{sim.ReportVLLM, sim.ReportLiteLLM},
			ServerTiming{Queue: 0, Prefill: 185 * time.Millisecond, Decode: 40 * time.Millisecond, Processing: Missing, Gateway: 15 * time.Millisecond, Source: "vllm+litellm"}},
		{Responses, "/v1", []string{sim.ReportOpenAI},
			ServerTiming{Queue: Missing, Prefill: Missing, Decode: Missing, Processing: 20 * time.Millisecond, Gateway: Missing, Source: "openai"}},
		{Anthropic, "", []string{sim.ReportOpenAI}, NoServerTiming()},
	}
	for _, tt := range tests {
		t.Run(string(tt.api), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(engineProfile(tt.report...), 1))
				b, _ := Body(tt.api, BodyParams{Model: "engine", Messages: []Message{{Role: "user", Content: "hello there"}}})
				rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), Request{API: tt.api, URL: URL(tt.api, Target{BaseURL: srv.URL + tt.base}), Body: b})
				got := rec.Server
				if !rec.OK || got.Queue != tt.want.Queue || got.Prefill != tt.want.Prefill || got.Decode != tt.want.Decode ||
					got.Processing != tt.want.Processing || got.Gateway != tt.want.Gateway || got.Source != tt.want.Source || got.IgnoredCount != 0 {
					t.Errorf("ok %v (%s)\ngot  %+v\nwant %+v", rec.OK, rec.Error, got, tt.want)
				}
			})
		})
	}
}
