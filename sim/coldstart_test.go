package sim

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// TestColdStartOnVirtualTime: a 2 s cold start after 30 s with nothing in
// flight, a TTFT of 100 ms and 130 ms per request (3 gaps of 10 ms). The
// first request starts cold; one right after it, and one 29.999 s after
// the last ended, find the server up; one 30 s after, and one 31 s after
// that, start it again; one sent 500 ms into that start waits the rest
// (1.5 s). Without --idle-after only the first starts cold.
func TestColdStartOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		p := Profile{TTFT: Fixed(100 * ms), ITL: Fixed(10 * ms), Tokens: 4, ColdStart: 2 * time.Second, IdleAfter: 30 * time.Second}
		srv := clocktest.NewServer(t, New(p, 1))
		ttft := func(wait time.Duration) time.Duration {
			status, d := firstToken(context.Background(), srv, wait)
			if status != 200 {
				t.Fatalf("status %d", status)
			}
			return d
		}
		for i, c := range []struct{ wait, want time.Duration }{
			{0, 2100 * ms},                  // the first request
			{0, 100 * ms},                   // up
			{30*time.Second - ms, 100 * ms}, // idle, but not for 30 s
			{30 * time.Second, 2100 * ms},   // 30 s idle: scaled to zero
			{0, 100 * ms},                   // up again
		} {
			if got := ttft(c.wait); got != c.want {
				t.Errorf("request %d, sent %v after the last ended: TTFT %v, want %v", i+1, c.wait, got, c.want)
			}
		}
		var waker, during time.Duration
		var wg sync.WaitGroup
		wg.Go(func() { waker = ttft(31 * time.Second) })
		wg.Go(func() { during = ttft(31*time.Second + 500*ms) })
		wg.Wait()
		if waker != 2100*ms || during != 1600*ms {
			t.Errorf("the request that wakes the server: TTFT %v, want 2.1s; one sent 500ms into its start: %v, want 1.6s", waker, during)
		}

		p.IdleAfter = 0
		once := clocktest.NewServer(t, New(p, 1))
		for i, want := range []time.Duration{2100 * ms, 100 * ms} {
			if status, got := firstToken(context.Background(), once, time.Duration(i)*time.Hour); status != 200 || got != want {
				t.Errorf("without idle_after, request %d (after %v): %d, TTFT %v, want %v", i+1, time.Duration(i)*time.Hour, status, got, want)
			}
		}
	})
}
