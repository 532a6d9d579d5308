package gate

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/suite"
)

// uiAgent streams what an AI SDK agent route does (the ai package's
// streamText with a tool, toUIMessageStreamResponse): step 1 a tool call
// from 100ms, the server's tool 150ms, step 2 the answer. Each event is
// sent after its delay; as SSE for the AI SDK, as NDJSON for the custom
// endpoint.
func uiAgent(w http.ResponseWriter, r *http.Request) {
	f := w.(http.Flusher)
	ndjson := r.URL.Path == "/agent.ndjson"
	send := func(d time.Duration, s string) {
		time.Sleep(d)
		if ndjson {
			fmt.Fprintf(w, "%s\n", s)
		} else {
			fmt.Fprintf(w, "data: %s\n\n", s)
		}
		f.Flush()
	}
	const ms = time.Millisecond
	send(0, `{"type":"start"}`)
	send(0, `{"type":"start-step"}`)
	send(100*ms, `{"type":"tool-input-start","toolCallId":"c1","toolName":"lookup_order"}`)
	send(20*ms, `{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"id\":\"42\"}"}`)
	send(0, `{"type":"tool-input-available","toolCallId":"c1","toolName":"lookup_order","input":{"id":"42"}}`)
	send(150*ms, `{"type":"tool-output-available","toolCallId":"c1","output":{"status":"shipped"}}`)
	send(0, `{"type":"finish-step"}`)
	send(0, `{"type":"start-step"}`)
	send(100*ms, `{"type":"text-delta","id":"t1","delta":"Shipped"}`)
	send(20*ms, `{"type":"text-delta","id":"t1","delta":" today."}`)
	send(0, `{"type":"finish-step"}`)
	send(0, `{"type":"finish","finishReason":"stop"}`)
	if !ndjson {
		send(0, "[DONE]")
	}
}

// TestServerDrivenScenarioIsASession: a scenario without tools or turns on
// an AI SDK route, or on a custom stream with step types, is measured as a
// session: its steps, first tool call, tool time, answer and session are
// in the results file, exact on virtual time (the server ran the tool).
func TestServerDrivenScenarioIsASession(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(uiAgent))
		cfgText := `endpoints:
  - {name: app, api: ai-sdk, url: ` + srv.URL + `/api/chat}
  - name: graph
    api: custom
    url: ` + srv.URL + `/agent.ndjson
    body: {messages: "{{messages}}"}
    stream:
      format: ndjson
      text: /delta
      type: /type
      tool_call: /inputTextDelta
      types: {text: [text-delta], tool_call: [tool-input-start, tool-input-delta], tool_call_done: [tool-input-available], tool_result: [tool-output-available], step: [start-step]}
scenarios:
  - {name: agent, prompt: "Where is order 42?", requests: 3}
`
		cfg, err := suite.Parse("agent.yaml", []byte(cfgText), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Runs) != 2 {
			t.Fatalf("%d runs, want 2", len(f.Runs))
		}
		for _, run := range f.Runs {
			for i, q := range run.Requests {
				if !q.OK || !q.IsSession() {
					t.Fatalf("%s request %d: ok %v (%s), session %v", run.Endpoint, i, q.OK, q.Error, q.IsSession())
				}
				if *q.StepCount != 2 || q.SessionEnd != "answer" {
					t.Errorf("%s request %d: %d steps ending %q, want 2 ending with an answer", run.Endpoint, i, *q.StepCount, q.SessionEnd)
				}
				for _, m := range []struct {
					name string
					got  *float64
					want float64
				}{{"first_tool_call_ms", q.FirstToolCallMs, 100}, {"tool_ms", q.ToolMs, 150}, {"answer_ms", q.AnswerMs, 370}, {"session_ms", q.SessionMs, 390}} {
					if m.got == nil || *m.got != m.want {
						t.Errorf("%s request %d: %s %v, want exactly %v", run.Endpoint, i, m.name, m.got, m.want)
					}
				}
			}
		}
	})
}

// TestServerDrivenTurns: a conversation with a server-driven agent is
// capped by the model calls latgate makes, not by the steps the server
// runs in each: two turns of two server steps each pass under the
// default max_steps (one call per turn), and a max_steps of one call per
// turn is enough.
func TestServerDrivenTurns(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(uiAgent))
		for _, extra := range []string{"", ", max_steps: 2"} {
			cfgText := "endpoints:\n  - {name: app, api: ai-sdk, url: " + srv.URL + "/api/chat}\n" +
				"scenarios:\n  - {name: agent, prompt: \"Where is order 42?\", turns: [\"And order 43?\"], requests: 2" + extra + "}\n"
			cfg, err := suite.Parse("agent.yaml", []byte(cfgText), suite.Options{})
			if err != nil {
				t.Fatalf("%q: %v", extra, err)
			}
			f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range f.Runs[0].Requests {
				if !q.OK || q.StepCount == nil || *q.StepCount != 4 || q.SessionEnd != "answer" {
					t.Errorf("%q request %d: ok %v (%s), steps %v, end %q; want 4 steps (2 per turn) ending with an answer", extra, i, q.OK, q.Error, q.StepCount, q.SessionEnd)
				}
			}
		}
	})
}
