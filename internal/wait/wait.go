// Package wait sleeps until a deadline or a context's end.
package wait

import (
	"context"
	"time"
)

// Until waits until t or until ctx is done; it reports whether ctx is still
// live (true: t was reached).
func Until(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}
