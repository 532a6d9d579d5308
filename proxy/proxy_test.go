package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/vocab"
)

// TestForwardsSSEByteForByte: a simulator's stream read through the proxy
// is the stream read from it directly, byte for byte and read for read at
// the same virtual instants (events 20 ms apart arrive 20 ms apart), with
// the proxy's stamp and its event.
func TestForwardsSSEByteForByte(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, direct := newSim(t)
		_, behind := newSim(t)
		want := record(t.Context(), direct.Client(), direct.URL, "", time.Minute)
		p, c := virtual(t, behind, Config{})
		start := time.Now()
		got := record(t.Context(), c, p.URL(), "req-1", time.Minute)
		if want.err != nil || got.err != nil {
			t.Fatalf("direct: %v, proxied: %v", want.err, got.err)
		}
		if !reflect.DeepEqual(got.pieces, want.pieces) || got.header != want.header {
			t.Fatalf("proxied (header at %v):\n%+v\ndirect (header at %v):\n%+v", got.header, got.pieces, want.header, want.pieces)
		}
		gaps := 0
		for i := 1; i < len(got.pieces); i++ {
			if got.pieces[i].at-got.pieces[i-1].at == 20*time.Millisecond {
				gaps++
			}
		}
		if gaps < 4 || !strings.Contains(got.body(), "data: [DONE]") {
			t.Fatalf("%d gaps of 20ms in %+v", gaps, got.pieces)
		}
		if u := got.resp.Header.Get(HeaderUpstream); u != "primary" {
			t.Errorf("Latgate-Upstream %q", u)
		}
		ev := p.Events()
		wantEv := []Event{{ID: "req-1", Arrived: start, FirstByte: start.Add(got.pieces[0].at), Status: 200}}
		if !reflect.DeepEqual(ev, wantEv) {
			t.Errorf("events %+v, want %+v", ev, wantEv)
		}
	})
}

// TestStallFirstToken: no header and no byte until the client gives up
// (its 5 s timeout, exactly); the upstream is never asked.
func TestStallFirstToken(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s, up := newSim(t)
		p, c := virtual(t, up, Config{}, Fault{Kind: vocab.StallFirstToken, Share: 1})
		start := time.Now()
		got := record(t.Context(), c, p.URL(), "a", 5*time.Second)
		if got.resp != nil || got.err == nil || got.ended != 5*time.Second {
			t.Fatalf("stalled request: response %v, error %v at %v; want none, a timeout at 5s", got.resp, got.err, got.ended)
		}
		if s.Requests() != 0 {
			t.Errorf("the upstream got %d requests", s.Requests())
		}
		synctest.Wait()
		if ev := p.Events(); !reflect.DeepEqual(ev, []Event{{ID: "a", Arrived: start, Fault: vocab.StallFirstToken}}) {
			t.Errorf("events %+v", ev)
		}
	})
}

// TestSlowFirstToken: the upstream is asked 300 ms late, so its whole
// answer (header, first byte and every later piece) arrives exactly 300 ms
// after the direct one's, at the same pace, byte for byte: a slow first
// token, not a held stream released in a burst.
func TestSlowFirstToken(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, direct := newSim(t)
		_, behind := newSim(t)
		want := record(t.Context(), direct.Client(), direct.URL, "", time.Minute)
		p, c := virtual(t, behind, Config{}, Fault{Kind: vocab.SlowFirstToken, Share: 1, Delay: 300 * time.Millisecond})
		got := record(t.Context(), c, p.URL(), "a", time.Minute)
		if want.err != nil || got.err != nil {
			t.Fatalf("direct: %v, proxied: %v", want.err, got.err)
		}
		first := want.pieces[0].at + 300*time.Millisecond
		if got.header != want.header+300*time.Millisecond || got.pieces[0].at != first || got.body() != want.body() || len(got.pieces) != len(want.pieces) {
			t.Fatalf("header at %v, first byte at %v, want %v and %v (direct %v and %v); same body: %v",
				got.header, got.pieces[0].at, want.header+300*time.Millisecond, first, want.header, want.pieces[0].at, got.body() == want.body())
		}
		for i := range want.pieces {
			if got.pieces[i].at != want.pieces[i].at+300*time.Millisecond {
				t.Errorf("piece %d at %v, want %v: the stream's pace changed", i, got.pieces[i].at, want.pieces[i].at+300*time.Millisecond)
			}
		}
		if ev := p.Events(); len(ev) != 1 || ev[0].Fault != vocab.SlowFirstToken || ev[0].FirstByte.Sub(ev[0].Arrived) != first {
			t.Errorf("events %+v", ev)
		}
	})
}

// TestStallMidStream: exactly the first 2 SSE events come, then nothing
// until the client's timeout; the stream never ends properly.
func TestStallMidStream(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, direct := newSim(t)
		_, behind := newSim(t)
		want := record(t.Context(), direct.Client(), direct.URL, "", time.Minute)
		p, c := virtual(t, behind, Config{}, Fault{Kind: vocab.StallMidStream, Share: 1, After: 2})
		got := record(t.Context(), c, p.URL(), "a", 5*time.Second)
		events := strings.SplitAfter(want.body(), "\n\n")
		if len(events) < 4 {
			t.Fatalf("the direct stream has %d events", len(events))
		}
		if b := got.body(); b != events[0]+events[1] {
			t.Fatalf("got %q before the stall, want the first 2 events %q", b, events[0]+events[1])
		}
		if got.err == nil || got.ended != 5*time.Second {
			t.Fatalf("stream ended at %v with %v; want a timeout at 5s", got.ended, got.err)
		}
		synctest.Wait()
		if ev := p.Events(); len(ev) != 1 || ev[0].Fault != vocab.StallMidStream || ev[0].Status != 200 {
			t.Errorf("events %+v", ev)
		}
	})
}

// TestEventEnds: stall_mid_stream's count of events: SSE events end at a
// blank line (\n, \r\n or \r line ends; blank lines without an event
// between them are not events), cut across chunks; other streams count
// non-empty lines.
func TestEventEnds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		chunks []string
		after  int
		sse    bool
		want   string
	}{
		{[]string{"data: a\n\ndata: b\n\ndata: c\n\n"}, 2, true, "data: a\n\ndata: b\n\n"},
		{[]string{"data: a\n", "\n", "\n\ndata: b\n\n", "data: c\n\n"}, 2, true, "data: a\n\n\n\ndata: b\n\n"},
		{[]string{"data: a\r\n\r\ndata: b\r\n\r\ndata: c\r\n\r\n"}, 1, true, "data: a\r\n\r\n"},
		{[]string{"data: a\r\rdata: b\r\r"}, 1, true, "data: a\r\r"},
		{[]string{"event: x\ndata: a\n\n:c\n\n"}, 1, true, "event: x\ndata: a\n\n"},
		{[]string{`{"a":1}` + "\n\n" + `{"b":2}` + "\n", `{"c":3}` + "\n"}, 2, false, `{"a":1}` + "\n\n" + `{"b":2}` + "\n"},
	}
	for i, tc := range cases {
		var e ends
		left, got := tc.after, ""
		for _, ch := range tc.chunks {
			var n int
			n, left = e.find([]byte(ch), left, tc.sse)
			got += ch[:n]
			if left == 0 {
				break
			}
		}
		if got != tc.want || left != 0 {
			t.Errorf("case %d: forwarded %q (%d left), want %q", i, got, left, tc.want)
		}
	}
}

// TestHTTPFault: the status and Retry-After at once, a JSON error body,
// the stamp; the upstream is never asked.
func TestHTTPFault(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s, up := newSim(t)
		p, c := virtual(t, up, Config{}, Fault{Kind: vocab.HTTPError, Share: 1, Status: 429, RetryAfter: "7"})
		got := record(t.Context(), c, p.URL(), "a", time.Minute)
		if got.err != nil || got.resp.StatusCode != 429 || got.header != 0 || got.ended != 0 {
			t.Fatalf("response %v, error %v, at %v", got.resp, got.err, got.header)
		}
		h := got.resp.Header
		var body struct {
			Error struct{ Type, Message string }
		}
		if err := json.Unmarshal([]byte(got.body()), &body); err != nil || body.Error.Type != "latgate_fault" ||
			h.Get("Retry-After") != "7" || h.Get(HeaderUpstream) != "primary" || h.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v, body %q (%v)", h, got.body(), err)
		}
		if s.Requests() != 0 {
			t.Errorf("the upstream got %d requests", s.Requests())
		}
		if ev := p.Events(); len(ev) != 1 || ev[0].Status != 429 || ev[0].Fault != vocab.HTTPError {
			t.Errorf("events %+v", ev)
		}
	})
}

// TestResetAndRefuseVirtual: both leave the client with a connection
// error and no response, the upstream unasked; refuse's event has no id
// (its request is never read), reset's has it.
func TestResetAndRefuseVirtual(t *testing.T) {
	t.Parallel()
	for _, kind := range []vocab.FaultKind{vocab.Reset, vocab.Refuse} {
		t.Run(string(kind), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s, up := newSim(t)
				p, c := virtual(t, up, Config{}, Fault{Kind: kind, Share: 1})
				start := time.Now()
				got := record(t.Context(), c, p.URL(), "a", time.Minute)
				if got.resp != nil || got.err == nil || got.ended != 0 {
					t.Fatalf("response %v, error %v at %v", got.resp, got.err, got.ended)
				}
				if s.Requests() != 0 {
					t.Errorf("the upstream got %d requests", s.Requests())
				}
				id := "a"
				if kind == vocab.Refuse {
					id = ""
				}
				if ev := p.Events(); !reflect.DeepEqual(ev, []Event{{ID: id, Arrived: start, Fault: kind}}) {
					t.Errorf("events %+v", ev)
				}
			})
		})
	}
}

// okUpstream answers every request 200 "ok".
func okUpstream(t *testing.T) *clocktest.Server {
	return clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }))
}

// TestShareIsExact: share 0.25 hits exactly requests 4, 8 and 12 of 12
// (k = 3, 7, 11 from 0); SetFaults starts the count again.
func TestShareIsExact(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p, c := virtual(t, okUpstream(t), Config{}, Fault{Kind: vocab.HTTPError, Share: 0.25, Status: 503})
		statuses := func(n int) []int {
			var out []int
			for i := range n {
				st, _, _, err := get(c, p.URL()+"/x", fmt.Sprint(i))
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, st)
			}
			return out
		}
		want := []int{200, 200, 200, 503, 200, 200, 200, 503, 200, 200, 200, 503}
		if got := statuses(12); !reflect.DeepEqual(got, want) {
			t.Fatalf("statuses %v, want %v", got, want)
		}
		if err := p.SetFaults([]Fault{{Kind: vocab.HTTPError, Share: 0.25, Status: 503}}); err != nil {
			t.Fatal(err)
		}
		if got := statuses(4); !reflect.DeepEqual(got, want[:4]) {
			t.Errorf("after SetFaults: %v, want %v", got, want[:4])
		}
		ev := p.Events()
		for i, e := range ev[:12] {
			if hit := e.Fault == vocab.HTTPError; hit != (i%4 == 3) || e.ID != fmt.Sprint(i) || e.Status != want[i] {
				t.Errorf("event %d: %+v", i, e)
			}
		}
	})
}

// TestSharesOfSeveralFaults: 0.5 and 0.25 of one phase: each due its own
// ⌊n·share⌋, a request due to both goes to the first, the other hits the
// next request.
func TestSharesOfSeveralFaults(t *testing.T) {
	t.Parallel()
	var pl plan
	pl.faults = []Fault{{Kind: vocab.HTTPError, Share: 0.5, Status: 500}, {Kind: vocab.HTTPError, Share: 0.25, Status: 503}}
	pl.given = make([]int, 2)
	var got []int
	for range 12 {
		f, hit := pl.take()
		if !hit {
			f.Status = 200
		}
		got = append(got, f.Status)
	}
	want := []int{200, 500, 200, 500, 503, 500, 200, 500, 503, 500, 200, 500}
	if !reflect.DeepEqual(got, want) || pl.given[0] != 6 || pl.given[1] != 2 {
		t.Errorf("statuses %v, want %v; given %v", got, want, pl.given)
	}
	// 0.29 of 100 is 29, although 0.29·100 is 28.999… in binary.
	pl = plan{faults: []Fault{{Kind: vocab.Reset, Share: 0.29}}, given: make([]int, 1)}
	for range 100 {
		pl.take()
	}
	if pl.given[0] != 29 {
		t.Errorf("0.29 of 100 hit %d", pl.given[0])
	}
}

// TestSetFaultsRefusesBadFaults: each bad fault named; nothing changes.
func TestSetFaultsRefusesBadFaults(t *testing.T) {
	t.Parallel()
	p := &Proxy{name: "primary"}
	for _, tc := range []struct {
		faults []Fault
		want   string
	}{
		{[]Fault{{Kind: "explode", Share: 1}}, `upstream primary: fault 1 (explode): unknown kind "explode"`},
		{[]Fault{{Kind: vocab.Reset, Share: 1.5}}, "upstream primary: fault 1 (reset): share 1.5: not in [0, 1]"},
		{[]Fault{{Kind: vocab.HTTPError, Share: 1, Status: 200}}, "upstream primary: fault 1 (http): status 200: not an error status (400-599)"},
		{[]Fault{{Kind: vocab.HTTPError, Share: 1, RetryAfter: "1\r\nX: y"}}, `upstream primary: fault 1 (http): retry_after "1\r\nX: y": not a header value`},
		{[]Fault{{Kind: vocab.SlowFirstToken, Share: 1, Delay: -1}}, "upstream primary: fault 1 (slow_first_token): delay -1ns: negative"},
		{[]Fault{{Kind: vocab.Reset, Share: 0.6}, {Kind: vocab.Refuse, Share: 0.6}}, "upstream primary: the faults' shares sum to 1.2, more than 1"},
	} {
		if err := p.SetFaults(tc.faults); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %s", tc.faults, err, tc.want)
		}
	}
	if p.plan.faults != nil {
		t.Errorf("a refused SetFaults set %+v", p.plan.faults)
	}
}

// TestCloseEndsAStall: Close, 1 s into a stalled request, ends it at that
// instant and returns; the proxy then takes no request.
func TestCloseEndsAStall(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, up := newSim(t)
		p, c := virtual(t, up, Config{}, Fault{Kind: vocab.StallFirstToken, Share: 1})
		done := make(chan streamed)
		go func() { done <- record(context.Background(), c, p.URL(), "a", time.Hour) }()
		time.Sleep(time.Second)
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		got := <-done
		if got.err == nil || got.ended != time.Second {
			t.Fatalf("stalled request ended at %v with %v; want an error at 1s", got.ended, got.err)
		}
		if _, _, _, err := get(c, p.URL(), "b"); err == nil {
			t.Error("a closed proxy answered")
		}
	})
}

// TestCloseEndsAStream: Close in the middle of a stream ends it at once,
// broken (no proper end), the upstream's request canceled.
func TestCloseEndsAStream(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, up := newSim(t)
		p, c := virtual(t, up, Config{})
		done := make(chan streamed)
		go func() { done <- record(context.Background(), c, p.URL(), "a", time.Hour) }()
		time.Sleep(130 * time.Millisecond) // between the 2nd and 3rd token
		_ = p.Close()
		got := <-done
		if got.err == nil || got.ended != 130*time.Millisecond || strings.Contains(got.body(), "[DONE]") {
			t.Fatalf("stream ended at %v with %v, body %q", got.ended, got.err, got.body())
		}
	})
}
