package gate

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
)

func TestProgressCountsMeasuredRequestsWithETA(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	m := &measurement{plan: []planned{{scenario: suite.Scenario{Name: "chat"}, endpoint: suite.Endpoint{Name: "e"}}}}
	p := newProgress(&out, false, 10, m.name, now)
	for i := 0; i < 3; i++ { // warmup: not counted
		p.record(0, probe.Record{OK: false}, true)
	}
	for i := 1; i <= 10; i++ {
		clock = clock.Add(3 * time.Second)
		p.record(0, probe.Record{OK: i != 4}, false)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if got, want := lines[0], "latgate: 1/10 requests (10%), 0 failed, 3s elapsed, about 27s left, now chat @ e"; got != want {
		t.Errorf("first line\n got %q\nwant %q", got, want)
	}
	if got, want := lines[len(lines)-1], "latgate: 10/10 requests (100%), 1 failed, 30s elapsed, about 0s left, now chat @ e"; got != want {
		t.Errorf("last line\n got %q\nwant %q", got, want)
	}
}
