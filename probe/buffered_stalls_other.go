//go:build !linux

package probe

import "time"

// threadWaits reads the threads' waits to run where the system tells
// them (Linux: buffered_stalls_linux.go); elsewhere the watch has only
// its own lateness.
type threadWaits struct{}

func newThreadWaits(time.Time) *threadWaits { return nil }

func (*threadWaits) scan(time.Time) []stall { return nil }

func (*threadWaits) close() {}
