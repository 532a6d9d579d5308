package probe

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

// arrivals records when each request arrived and when its answer ended,
// on the bubble's clock.
type arrivals struct {
	mu         sync.Mutex
	start, end []time.Time
	h          http.Handler
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.start = append(a.start, time.Now())
	a.mu.Unlock()
	a.h.ServeHTTP(w, r)
	a.mu.Lock()
	a.end = append(a.end, time.Now())
	a.mu.Unlock()
}

// TestColdSamples: requests of exactly 20ms. After the 4 measured
// requests (2 at a time: 40ms), the group sends nothing for 60s, then one
// cold sample, three times: each sample arrives exactly 60s after the
// previous request ended (SentAt 60s, 120.02s, 180.04s from the end of
// the measured phase), and only its records are Cold, with no item.
func TestColdSamples(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := &arrivals{h: sim.New(sim.Profile{TTFT: sim.Fixed(20 * ms), ITL: sim.Fixed(0), Tokens: 1}, 1)}
		srv := clocktest.NewServer(t, a)
		g := group(t, srv, 4, 0, 2)
		g.Cold = Cold{Idle: time.Minute, Samples: 3}
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
		if !res.Complete() || res.Sent != 7 || len(got[0]) != 7 {
			t.Fatalf("complete %v, sent %d, %d records; want 4 measured and 3 cold", res.Complete(), res.Sent, len(got[0]))
		}
		var sent []time.Duration
		for i, rec := range got[0] {
			if want := i >= 4; rec.Cold != want || !rec.OK {
				t.Errorf("record %d: cold %v ok %v, want cold %v", i, rec.Cold, rec.OK, want)
			}
			if rec.Cold {
				sent = append(sent, rec.SentAt)
				if rec.Item != 0 || rec.TTFT != 20*ms {
					t.Errorf("cold record %d: item %d, TTFT %v; want no item and the profile's 20ms", i, rec.Item, rec.TTFT)
				}
			}
		}
		if want := []time.Duration{time.Minute, 2*time.Minute + 20*ms, 3*time.Minute + 40*ms}; fmt.Sprint(sent) != fmt.Sprint(want) {
			t.Errorf("cold samples sent at %v, want %v", sent, want)
		}
		for i := 4; i < 7; i++ {
			exactly(t, fmt.Sprintf("idle before cold sample %d", i-3), a.start[i].Sub(a.end[i-1]), time.Minute)
		}
	})
}

// TestColdSamplesAB: in an A/B group each round sends one request of each
// variant at once, after the idle period, in a block of its own after the
// measured blocks (3 per variant in blocks of 2: blocks 1 and 2).
func TestColdSamplesAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(20 * ms), ITL: sim.Fixed(0), Tokens: 1}, 1)})
		g := abGroup(t, srv, 3, 0, 2)
		g.Cold = Cold{Idle: 30 * time.Second, Samples: 2}
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 3}, []Group{g})
		if !res.Complete() || len(got[0]) != 10 {
			t.Fatalf("complete %v, %d records; want 2×3 measured and 2×2 cold", res.Complete(), len(got[0]))
		}
		cold := map[int]map[vocab.Side]time.Duration{}
		for _, rec := range got[0] {
			if !rec.Cold {
				continue
			}
			if cold[rec.Block] == nil {
				cold[rec.Block] = map[vocab.Side]time.Duration{}
			}
			cold[rec.Block][rec.Variant] = rec.SentAt
		}
		want := map[int]map[vocab.Side]time.Duration{
			3: {vocab.Base: 30 * time.Second, vocab.Head: 30 * time.Second},
			4: {vocab.Base: time.Minute + 20*ms, vocab.Head: time.Minute + 20*ms},
		}
		if fmt.Sprint(cold) != fmt.Sprint(want) {
			t.Errorf("cold samples by block and variant, sent at %v; want %v", cold, want)
		}
	})
}
