package probe

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/vocab"
)

// lazyStepAgent streams as the ai package's streamText does (seen on ai
// 7.0.173 with its mock model, make e2e-aisdk): start-step comes with the
// model's first chunk, not when the model is called; the message's start
// comes before it. Step 1's model takes 300ms to its tool call; the tool
// 150ms; step 2's model 300ms to its text.
func lazyStepAgent(w http.ResponseWriter, r *http.Request) {
	f := w.(http.Flusher)
	send := func(d time.Duration, s string) {
		time.Sleep(d)
		fmt.Fprintf(w, "data: %s\n\n", s)
		f.Flush()
	}
	send(5*ms, `{"type":"start"}`)
	send(295*ms, `{"type":"start-step"}`)
	send(0, `{"type":"tool-input-start","toolCallId":"c1","toolName":"lookup_order"}`)
	send(20*ms, `{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"id\":\"42\"}"}`)
	send(0, `{"type":"tool-input-available","toolCallId":"c1","toolName":"lookup_order","input":{"id":"42"}}`)
	send(150*ms, `{"type":"tool-output-available","toolCallId":"c1","output":{"status":"shipped"}}`)
	send(0, `{"type":"finish-step"}`)
	send(300*ms, `{"type":"start-step"}`)
	send(0, `{"type":"text-start","id":"t1"}`)
	send(0, `{"type":"text-delta","id":"t1","delta":"Shipped"}`)
	send(20*ms, `{"type":"text-delta","id":"t1","delta":" today."}`)
	send(0, `{"type":"finish-step"}`)
	send(0, `{"type":"finish","finishReason":"stop"}`)
	send(0, "[DONE]")
}

// TestServerDrivenStepStartsWhereTheLastEnded: a step marked when its
// model's first chunk comes is timed from the end of the step before it
// (the first from the send): each step's TTFT holds its model's 300ms,
// not the few ms from the mark.
func TestServerDrivenStepStartsWhereTheLastEnded(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(lazyStepAgent))
		s := &Session{Params: BodyParams{Messages: []Message{{Role: "user", Content: "Where is order 42?"}}}, MaxSteps: 5}
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: AISDK, URL: srv.URL + "/api/chat", Session: s})
		if !rec.OK || len(rec.Session.Steps) != 2 {
			t.Fatalf("ok %v (%s), %+v", rec.OK, rec.Error, rec.Session)
		}
		st := rec.Session.Steps
		exactly(t, "step 1 start", st[0].Start, 0)
		exactly(t, "step 1 ttft (its first argument piece)", st[0].TTFT, 320*ms)
		exactly(t, "step 1 first tool call", st[0].FirstToolCall, 300*ms)
		exactly(t, "step 1 total", st[0].Total, 470*ms)
		exactly(t, "step 2 start", st[1].Start, 470*ms)
		exactly(t, "step 2 ttft", st[1].TTFT, 300*ms)
		exactly(t, "step 2 total", st[1].Total, 320*ms)
		exactly(t, "first tool call", rec.Session.FirstToolCall, 300*ms)
		exactly(t, "tool time", rec.Session.ToolTime, 150*ms)
		exactly(t, "answer", rec.Session.Answer, 770*ms)
		exactly(t, "session", rec.Total, 790*ms)
	})
}

// TestServerDrivenStepCap: a stream that marks more steps in one call than
// any agent runs fails the request, rather than recording every step (a
// hostile stream of 40,000 marks took seconds of CPU and memory).
func TestServerDrivenStepCap(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, MaxMarkedSteps + 1} {
		var b strings.Builder
		b.WriteString("data: {\"type\":\"start\"}\n\n")
		for range n {
			b.WriteString("data: {\"type\":\"start-step\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"x\"}\n\n")
		}
		b.WriteString("data: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n")
		srv := canned(t, 200, "text/event-stream", b.String(), nil)
		params := BodyParams{Messages: []Message{{Role: "user", Content: "hi"}}}
		body, _ := Body(AISDK, params)
		p := &Prober{Client: srv.Client()}
		rec := p.Do(context.Background(), Request{API: AISDK, URL: srv.URL, Body: body, Session: &Session{Params: params, MaxSteps: 1}})
		if n <= MaxMarkedSteps {
			if !rec.OK || len(rec.Session.Steps) != n {
				t.Errorf("%d steps: ok %v (%s), %d steps recorded", n, rec.OK, rec.Error, len(rec.Session.Steps))
			}
			continue
		}
		if rec.OK || !strings.Contains(rec.Error, fmt.Sprintf("the stream marked more than %d steps in one call", MaxMarkedSteps)) || rec.Failure != vocab.Malformed || len(rec.Session.Steps) > MaxMarkedSteps {
			t.Errorf("%d steps: ok %v, error %q, %d steps recorded; want a failure naming the count", n, rec.OK, rec.Error, len(rec.Session.Steps))
		}
	}
}

// TestServerErrorTextIsClipped: an error event of megabytes is kept as its
// first MaxError bytes, cut at a character.
func TestServerErrorTextIsClipped(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("é", 4<<20)
	srv := canned(t, 200, "text/event-stream", "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"error\",\"errorText\":\""+huge+"\"}\n\n", nil)
	params := BodyParams{Messages: []Message{{Role: "user", Content: "hi"}}}
	body, _ := Body(AISDK, params)
	rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: AISDK, URL: srv.URL, Body: body, Session: &Session{Params: params, MaxSteps: 1}})
	if rec.OK || len(rec.Error) > MaxError+len("step 1: …") || !strings.HasSuffix(rec.Error, "é…") {
		t.Errorf("ok %v, error of %d bytes ending %q", rec.OK, len(rec.Error), rec.Error[max(0, len(rec.Error)-8):])
	}
}
