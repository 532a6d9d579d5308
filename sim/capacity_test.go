package sim

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// firstToken sends a chat request after wait and returns its status and
// the time from its send to its first data line (0 without one).
func firstToken(ctx context.Context, srv *clocktest.Server, wait time.Duration) (int, time.Duration) {
	time.Sleep(wait)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	start := time.Now()
	resp, err := srv.Client().Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			d := time.Since(start)
			for sc.Scan() {
			}
			return resp.StatusCode, d
		}
	}
	return resp.StatusCode, 0
}

// TestCapacityOnVirtualTime: two slots, 10 ms more prefill per other
// request in the batch, a queue of one. A arrives at 0 (batch 1: first
// token at 100 ms), B at 1 ms (batch 2: 110 ms), C at 2 ms waits for A's
// slot (A ends at 130 ms: 100 + 3 gaps of 10) and joins B's batch (110 ms
// more: 238 ms from its send), D at 3 ms finds the queue full (429), E at
// 4 ms waits and leaves at 50 ms, giving its place back.
func TestCapacityOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		p := Profile{TTFT: Fixed(100 * ms), ITL: Fixed(10 * ms), Tokens: 4,
			Capacity: Capacity{Slots: 2, Queue: 1, PrefillPerRequest: 10 * ms}}
		srv := clocktest.NewServer(t, New(p, 1))
		type got struct {
			status int
			ttft   time.Duration
		}
		res := make([]got, 4)
		var wg sync.WaitGroup
		for i, wait := range []time.Duration{0, ms, 2 * ms, 3 * ms} {
			wg.Go(func() { res[i].status, res[i].ttft = firstToken(context.Background(), srv, wait) })
		}
		wg.Go(func() {
			time.Sleep(4 * ms) // E: after D, so D still finds C waiting
			ctx, cancel := context.WithTimeout(context.Background(), 46*ms)
			defer cancel()
			firstToken(ctx, srv, 0)
		})
		wg.Wait()
		want := []got{{200, 100 * ms}, {200, 110 * ms}, {200, 238 * ms}, {429, 0}}
		for i := range want {
			if res[i] != want[i] {
				t.Errorf("request %c: %d, first token after %v; want %d after %v", 'A'+i, res[i].status, res[i].ttft, want[i].status, want[i].ttft)
			}
		}
		// Every slot is free again, and nobody waits: the next request is
		// served at once, alone in its batch.
		if status, ttft := firstToken(context.Background(), srv, 0); status != 200 || ttft != 100*ms {
			t.Errorf("afterwards: %d after %v, want 200 after 100ms", status, ttft)
		}
	})
}

// TestCapacityUsers: eight users on eight slots never wait; nine do.
func TestCapacityUsers(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		p := Profile{TTFT: Fixed(100 * ms), ITL: Fixed(20 * ms), Tokens: 16, Capacity: Capacity{Slots: 8, PrefillPerRequest: 10 * ms}}
		for _, users := range []int{8, 9} {
			srv := clocktest.NewServer(t, New(p, 1))
			var mu sync.Mutex
			var worst time.Duration
			var wg sync.WaitGroup
			for u := range users {
				wg.Go(func() {
					for range 5 {
						_, ttft := firstToken(context.Background(), srv, time.Duration(u)*ms)
						mu.Lock()
						worst = max(worst, ttft)
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			// Eight: at most 100 + 7 × 10 ms. Nine: one waits for a whole
			// answer (at least 100 + 15 gaps of 20 ms).
			if users == 8 && worst != 170*ms || users == 9 && worst < 400*ms {
				t.Errorf("%d users: slowest first token %v", users, worst)
			}
		}
	})
}
