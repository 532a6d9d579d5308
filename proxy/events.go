package proxy

import (
	"sync"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Event is one request the proxy saw.
type Event struct {
	// ID is the request's Latgate-Request header ("" when none, and for
	// a refused connection, whose request is never read); at most 128
	// bytes of it.
	ID string
	// Arrived is when the request was read (a refused one: accepted).
	Arrived time.Time
	// Fault is the kind of fault that hit the request, "" for none.
	Fault vocab.FaultKind
	// FirstByte is when the response's first body byte was written to the
	// client; zero if none was.
	FirstByte time.Time
	// Status is the status answered; 0 when none was (a stall before the
	// header, reset, refuse, or the upstream could not be asked because
	// the client went away).
	Status int
	// HeaderAdded is the proxy's own latency on the header: from the
	// upstream's header read to it written to the client; FirstByteAdded
	// from the upstream's first body byte read to it written and flushed.
	// A slow_first_token delay is not in them (it comes before the
	// upstream is asked).
	HeaderAdded, FirstByteAdded time.Duration
}

// Events is a copy of the log since Reset, oldest first (a request still
// in flight as far as it went).
func (p *Proxy) Events() []Event { return p.log.events() }

// Dropped is how many events since Reset the log dropped, oldest first,
// to stay within Config.MaxEvents.
func (p *Proxy) Dropped() int64 {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return p.log.dropped
}

// Reset empties the log (between phases); requests in flight are not
// logged any more.
func (p *Proxy) Reset() {
	l := &p.log
	l.mu.Lock()
	l.slots, l.base, l.dropped = nil, l.next, 0
	l.mu.Unlock()
}

// eventLog is a ring of at most max events; an event is added when its
// request arrives and completed in place (by its sequence number) as it
// goes.
type eventLog struct {
	mu      sync.Mutex
	max     int
	slots   []slot
	next    int64 // the next event's sequence number
	base    int64 // the first sequence number since Reset
	dropped int64
}

type slot struct {
	seq int64
	ev  Event
}

func (l *eventLog) add(ev Event) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	seq := l.next
	l.next++
	if i := seq - l.base; i < int64(l.max) {
		l.slots = append(l.slots, slot{seq, ev})
	} else {
		l.slots[i%int64(l.max)] = slot{seq, ev}
		l.dropped++
	}
	return seq
}

// update changes event seq, unless it was dropped or reset since.
func (l *eventLog) update(seq int64, f func(*Event)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if seq < l.base {
		return
	}
	if s := &l.slots[(seq-l.base)%int64(l.max)]; s.seq == seq {
		f(&s.ev)
	}
}

func (l *eventLog) events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Event, 0, len(l.slots))
	start := 0
	if n := l.next - l.base; n > int64(l.max) {
		start = int(n % int64(l.max))
	}
	for i := range l.slots {
		out = append(out, l.slots[(start+i)%len(l.slots)].ev)
	}
	return out
}
