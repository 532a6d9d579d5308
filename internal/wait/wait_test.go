package wait

import (
	"context"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	if !Until(context.Background(), time.Now().Add(-time.Second)) {
		t.Error("a past deadline on a live context should report true")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Until(ctx, time.Now().Add(time.Hour)) {
		t.Error("a canceled context should report false at once")
	}
	if !Until(context.Background(), time.Now().Add(time.Millisecond)) {
		t.Error("a near deadline should be reached")
	}
}
