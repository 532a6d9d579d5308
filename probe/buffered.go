package probe

import "time"

// How a stream is judged to have arrived buffered (Record.Buffered,
// docs/metrics.md, "Buffering"): a model call's answer arrived buffered
// when its content events came together, in few bursts, after a wait at
// least twice as long as they took to come.
const (
	// BufferedGap: events less than this apart came in one burst, one
	// read of bytes that were all there: a client decodes an event in
	// microseconds, a model's tokens come milliseconds apart.
	BufferedGap = time.Millisecond
	// BufferedEvents is the fewest content events an answer needs to be
	// judged, and the fewest its bursts hold on average when it arrived
	// buffered. A loaded client that reads late gets a few events a read
	// (a median of 1 to 11 on the simulator's profiles beside load
	// average 14 to 18; a held answer 12 to 128 on average), and a short
	// answer in one read proves nothing.
	BufferedEvents = 16
)

// answerShape is how a model call's answer (the content events of one
// step) arrived.
type answerShape struct {
	events, bursts int
	first, last    time.Duration // its first and last content event
	// wait is the longest silence of its call before its first content
	// event: between two events, or from the call's send to its first;
	// stalled, how long the client's process did not run within it, and
	// spreadStalled within first to last (buffered_stalls.go).
	wait, stalled, spreadStalled time.Duration
}

// buffered: enough events to tell, in bursts of BufferedEvents or more on
// average, that took at most half as long to come as the call's longest
// wait before them. A held answer waited for all of it to be written; a
// loaded client that read late got the part of the answer written while
// it slept, and the rest at its pace: to look held, it must have slept
// twice as long as the rest took, and read the whole answer in few reads.
// The longest wait, not the one just before: a held body read in pieces
// (a client descheduled between two reads) still had one long wait.
//
// A wait that was half or more the client's own stalls cannot tell: the
// answer may have come, streamed, while the client did not run (one
// long stall), or its reader not been run in the moments the process ran
// between many short ones (a process that gets the CPU in slices, as its
// watch's late wake-ups show).
func (a answerShape) buffered() bool { return a.heldShape() && 2*a.stalled < a.wait }

// heldShape: the shape of a held answer, the client's stalls aside.
func (a answerShape) heldShape() bool {
	return a.events >= BufferedEvents && a.events >= a.bursts*BufferedEvents && 2*(a.last-a.first) <= a.wait
}

// readAcrossStalls: an answer that would have a held answer's spread
// were the client's stalls within it taken out (a stall also splits a
// burst, so their count is not asked): a held body read in pieces by a
// client descheduled between them. Not buffered (the stalls decided its
// shape), but unsure.
func (a answerShape) readAcrossStalls() bool {
	return a.events >= BufferedEvents && a.spreadStalled > 0 && 2*(a.last-a.first-a.spreadStalled) <= a.wait
}

// answerShapes lists the answers of a timeline, one per step that has
// content events (reasoning, tool-call arguments and a server's steps are
// not the answer: each step is a model call of its own, streamed at its
// own pace). sends are the calls' sends (nil: one call, sent at t0);
// stalls, when the client's process did not run.
func answerShapes(events []event, sends []time.Duration, stalls []span) []answerShape {
	var out []answerShape
	var prev time.Duration // the call's previous event (its send first)
	var wait span          // its longest silence so far
	call := 0
	cur := -1 // the current step's answer in out; -1: none yet
	for i, e := range events {
		for call+1 < len(sends) && e.at >= sends[call+1] {
			call++
			prev, wait = sends[call], span{}
		}
		if e.at-prev > wait.to-wait.from {
			wait = span{from: prev, to: e.at}
		}
		prev = e.at
		if e.step && i > 0 {
			cur = -1
		}
		if e.content == 0 {
			continue
		}
		if cur < 0 {
			out = append(out, answerShape{bursts: 1, first: e.at, last: e.at, wait: wait.to - wait.from, stalled: stalledIn(stalls, wait.from, wait.to)})
			cur = len(out) - 1
		}
		a := &out[cur]
		if e.at-a.last >= BufferedGap {
			a.bursts++
		}
		a.events, a.last = a.events+1, e.at
	}
	for i := range out {
		out[i].spreadStalled = stalledIn(stalls, out[i].first, out[i].last)
	}
	return out
}

// arrivedBuffered reports whether every answer of the timeline that can be
// judged arrived buffered, and at least one could be; unsure, whether an
// answer's shape was the client's own stalls' doing, so that it could not
// tell: one in the shape of a held one whose wait they cover
// (answerShape.buffered), or one read across them (readAcrossStalls).
func arrivedBuffered(tl timeline) (buffered, unsure bool) {
	judged, all := false, true
	for _, a := range answerShapes(tl.events, tl.sends, tl.stalls) {
		if a.events < BufferedEvents {
			continue
		}
		judged = true
		if !a.buffered() {
			all = false
			unsure = unsure || a.heldShape() || a.readAcrossStalls()
		}
	}
	return judged && all, unsure
}
