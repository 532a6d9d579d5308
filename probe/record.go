package probe

import (
	"math"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Missing marks a time that was not observed (for example the TTFT of a
// request that failed before any output). Results files write it as null.
const Missing time.Duration = -1

// Record is one timed request. Every duration is measured from t0, the
// moment just before the request is handed to the HTTP client, on the
// monotonic clock. See docs/metrics.md for the definitions.
type Record struct {
	OK     bool
	Status int
	Error  string
	// Failure is the kind of a failed request's error ("" when ok).
	Failure vocab.Failure
	// Seen is what the response looked like beyond its metrics (its
	// content type, a redirect, why a connection failed): what a
	// diagnosis of the endpoint reads (latgate check).
	Seen Seen

	DNS, Connect, TLS time.Duration
	// Upgrade (api realtime) is the rest of a new WebSocket's set-up: the
	// upgrade request and its 101, then the wait for session.created; 0
	// on a reused connection and for the HTTP APIs.
	Upgrade time.Duration
	Reused  bool

	TTFB       time.Duration
	FirstEvent time.Duration
	TTFT       time.Duration
	TTFC       time.Duration
	Total      time.Duration
	Perceived  time.Duration
	TPOT       time.Duration // Missing when OutputTokens < 2
	MaxStall   time.Duration
	ITL        []time.Duration

	OutputTokens int
	PromptTokens int
	CachedTokens int
	// ReasoningTokens is the part of OutputTokens the server reports as
	// reasoning (0 when it reports none).
	ReasoningTokens int
	TokensSource    string // "usage" or "events"
	// UnknownEvents counts the events of types the API's decoder does not
	// know (api realtime), which it ignored.
	UnknownEvents int

	// Server is what the server reported of its own time on the request
	// (queue, prefill, decode …), checked against what latgate measured;
	// nothing reported: every stage Missing. A session's is its first
	// step's (each step has its own).
	Server ServerTiming

	// Start is when the request was handed to the client, on the Prober's
	// clock (for ordering and SentAt); never used to compute a latency.
	Start time.Time

	// Set by the Runner. IntendedAt is when the open-loop schedule meant
	// to send the request and SentAt when it was handed to the HTTP client,
	// both from the start of the group's phase (warmup or measurement);
	// SentAt − IntendedAt is the schedule lag (coordinated omission), see
	// ScheduleLag. In closed loop a request is sent as soon as a worker is
	// free: there is no schedule to fall behind, and IntendedAt is Missing.
	IntendedAt time.Duration
	SentAt     time.Duration
	// Variant is Base or Head in an interleaved A/B group ("" otherwise),
	// and Block the A/B block the request belongs to (from 1; 0 otherwise).
	Variant vocab.Side
	Block   int
	// Item is the measured request's item in its group, from 1 (Group.Item:
	// the same for base's and head's k-th request); 0 for a warmup.
	Item int
	// Cold: a cold sample (Group.Cold), sent after an idle period.
	Cold bool

	// Session is what a session of several model calls measured beyond a
	// single call (its steps, tool time, answer); nil for a single call.
	// For a session the stream fields above cover the whole session.
	Session *SessionRecord
	// Page is what a chat page in a browser measured beyond them (api
	// browser); nil for every other API.
	Page *PageRecord
	// Shots are a page's screenshots (api browser): at its first paint
	// and its end, or where it failed.
	Shots []PageShot

	// buffered: every answer of the stream that can be judged arrived
	// buffered (Buffered), set by derive; unsure: one came in the shape
	// of a held answer while the client's own process stalled, so it
	// could not tell (buffered_stalls.go).
	buffered, unsure bool

	// misread: the stream could not be read as configured (a custom
	// endpoint's text pointer matched no event, or its stream is not SSE
	// as configured). Every further request
	// would fail the same way, so the Runner stops at the first one.
	misread bool
}

// Buffered reports whether the request's stream arrived buffered (for a
// page in a browser: whether it showed nothing until its stream ended): a
// proxy or gateway that holds the response and releases it at once turns
// streaming into a long wait and the whole answer together. Judged on each
// model call's answer (buffered.go): one of at least BufferedEvents content
// events, in bursts of BufferedEvents or more on average, that took at most
// half the longest wait of its call before them to come. A stream with no
// such answer (tool calls only, a short answer) is not buffered: it cannot
// tell.
func (r Record) Buffered() bool {
	if r.Page != nil {
		return r.Page.Buffered
	}
	return r.buffered
}

// Outside is the part of the TTFT spent outside the engine (network,
// proxies, the framework in front of it): the TTFT less the server's
// queue and prefill, when it reported both; Missing otherwise.
func (r Record) Outside() time.Duration { return r.Server.Outside(r.TTFT) }

// ScheduleLag is how late the request was sent against the open-loop
// schedule (SentAt − IntendedAt), or Missing in closed loop.
func (r Record) ScheduleLag() time.Duration {
	if r.IntendedAt == Missing {
		return Missing
	}
	return r.SentAt - r.IntendedAt
}

func newRecord() Record {
	return Record{
		TTFB: Missing, FirstEvent: Missing, TTFT: Missing, TTFC: Missing,
		Total: Missing, Perceived: Missing, TPOT: Missing, MaxStall: Missing,
		IntendedAt: Missing, SentAt: Missing, Server: NoServerTiming(),
	}
}

// Seen is what a request saw of its response beyond its metrics.
type Seen struct {
	// ContentType is the response's Content-Type ("" with no response).
	ContentType string
	// Location is where a redirect pointed: a 3xx answered (a client
	// that follows none) or a redirect the client refused to follow.
	// Redirected is where a followed redirect led ("" when none was).
	Location, Redirected string
	// Net is why the connection failed ("" when it did not, or for
	// another reason).
	Net NetFault
	// Upstream is the response's Latgate-Upstream header: which of
	// latgate's fault proxies served it, passed back by a gateway ("" when
	// none).
	Upstream string
}

// NetFault is why a request's connection failed.
type NetFault string

const (
	// NoHost: the host's name did not resolve (DNS).
	NoHost NetFault = "dns"
	// Refused: nothing listens at the address (connection refused).
	Refused NetFault = "refused"
	// BadTLS: the TLS handshake failed (a certificate not trusted, not
	// the host's, or a server that does not speak TLS).
	BadTLS NetFault = "tls"
)

// outputEvent is one SSE event that carried generated output.
type outputEvent struct {
	at    time.Duration
	chars int
	step  int // the session step it belongs to (0 for a single call)
}

// readerModel returns perceived latency by the reader model of docs/metrics.md: a
// reader starts at the first token and reads rate tokens per second, never
// ahead of what has arrived; perceived = finish time − tokens/rate. An event
// carrying k tokens delivers all k at its arrival instant.
func readerModel(events []outputEvent, tokens []float64, rate float64) time.Duration {
	if len(events) == 0 || rate <= 0 {
		return Missing
	}
	perToken := float64(time.Second) / rate
	var finish, total float64
	for i, e := range events {
		at := float64(e.at)
		if at > finish {
			finish = at // the reader waits for this event
		}
		finish += tokens[i] * perToken
		total += tokens[i]
	}
	return time.Duration(math.Round(finish - total*perToken)) // to the nanosecond, not 1 ns short
}

// spreadTokens gives each event its share of n tokens, in proportion to its
// characters (docs/metrics.md); with n <= 0 every event carries one token.
func spreadTokens(events []outputEvent, n int) []float64 {
	k := make([]float64, len(events))
	chars := 0
	for _, e := range events {
		chars += e.chars
	}
	for i, e := range events {
		if n <= 0 || chars == 0 {
			k[i] = 1
			continue
		}
		k[i] = float64(n) * float64(e.chars) / float64(chars)
	}
	return k
}
