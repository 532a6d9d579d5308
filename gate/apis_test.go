package gate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// TestEveryAPIThroughThePipeline: a suite with one endpoint per api, each
// served by the simulator with a fixed TTFT behind the API's preamble
// events, is measured with every request ok, TTFT exactly the injected
// value (on virtual time) and token counts from each API's usage.
func TestEveryAPIThroughThePipeline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testEveryAPIThroughThePipeline)
}

func testEveryAPIThroughThePipeline(t *testing.T) {
	const ttft = 60 * time.Millisecond
	s := sim.New(sim.Profile{TTFT: sim.Fixed(ttft), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 12,
		Quirks: sim.Quirks{RoleChunk: true, KeepAlives: 2}}, 5)
	s.APIKey = "sk-apis-SECRET-42"
	srv := clocktest.NewServer(t, s)
	u := srv.URL
	cfgText := `endpoints:
  - {name: chat, base_url: ` + u + `/v1, model: m, api_key_env: K}
  - {name: responses, api: responses, base_url: ` + u + `/v1, model: m, api_key_env: K}
  - {name: anthropic, api: anthropic, base_url: ` + u + `, model: m, api_key_env: K}
  - {name: gemini, api: gemini, base_url: ` + u + `/v1beta, model: m, api_key_env: K}
  - {name: azure, api: azure, base_url: ` + u + `, deployment: d, api_version: "2024-10-21", api_key_env: K}
  - name: custom
    api: custom
    url: ` + u + `/api/chat
    headers: {Authorization: "Bearer ${K}"}
    body: {model: m, stream: true, messages: "{{messages}}", options: {num_predict: "{{max_tokens}}"}}
    stream: {format: ndjson, text: /message/content, done: /done, output_tokens: /eval_count, input_tokens: /prompt_eval_count}
  - {name: realtime, api: realtime, base_url: ` + strings.Replace(u, "http:", "ws:", 1) + `/v1, model: m, api_key_env: K}
scenarios:
  - {name: hello, prompt: "Say hello.", max_tokens: 12, requests: 10, warmup: 1, concurrency: 2}
`
	getenv := func(k string) string { return map[string]string{"K": "sk-apis-SECRET-42"}[k] }
	cfg, err := suite.Parse("apis.yaml", []byte(cfgText), suite.Options{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 7 {
		t.Fatalf("%d runs, want one per api (7)", len(f.Runs))
	}
	for _, run := range f.Runs {
		for i, q := range run.Requests {
			if !q.OK || strings.Contains(q.Error, "SECRET") {
				t.Fatalf("%s: request %d failed: %s", run.Endpoint, i, q.Error)
			}
			if q.OutputTokens != 12 || q.TokensSource != "usage" {
				t.Errorf("%s: output_tokens %d from %q, want 12 from usage", run.Endpoint, q.OutputTokens, q.TokensSource)
			}
			if want := float64(ttft.Milliseconds()); *q.TTFTMs != want {
				t.Errorf("%s: request %d: TTFT %v ms, want exactly %v ms behind the preamble events", run.Endpoint, i, *q.TTFTMs, want)
			}
		}
	}
}

// TestBufferingProxyStopsTheRun: a stream buffered by a proxy (the
// simulator's Buffered quirk) stops the run at its first request, naming
// the likely cause, before anything is measured; the same stream
// unbuffered does not, read as it comes or by a loaded client that reads
// every 40ms (eight events a read), and gets no warning. Virtual time:
// the gaps are exactly 5ms, the answer whole at 320ms when buffered.
func TestBufferingProxyStopsTheRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		buffered bool
		every    time.Duration
	}{{false, 0}, {false, 40 * time.Millisecond}, {true, 0}} {
		synctest.Test(t, func(t *testing.T) {
			s := sim.New(sim.Profile{TTFT: sim.Fixed(200 * time.Millisecond), ITL: sim.Fixed(5 * time.Millisecond), Tokens: 24,
				Quirks: sim.Quirks{Buffered: tt.buffered}}, 1)
			srv := clocktest.NewServer(t, s)
			srv.ReadEvery = tt.every
			cfg, err := suite.Parse("b.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, max_tokens: 24, requests: 6, concurrency: 2}\n"), suite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
			var stop *CheckError
			if tt.buffered {
				if f != nil || !errors.As(err, &stop) || stop.Diagnosis.Finding != vocab.NotStreamed || !strings.Contains(err.Error(), "proxy_buffering off") {
					t.Errorf("buffered: file %v, error %v: want the run stopped at its first request, naming the buffering", f != nil, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("read every %v: %v", tt.every, err)
			}
			if w := RunWarnings(f); len(w) > 0 {
				t.Errorf("unbuffered, read every %v: warnings %q", tt.every, w)
			}
		})
	}
}
