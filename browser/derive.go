package browser

import (
	"math"
	"time"
)

// Missing marks a time that was not observed.
const Missing time.Duration = -1

// LongFrame is the length over which a frame is long (as the Long
// Animation Frames API counts them).
const LongFrame = 50 * time.Millisecond

// Frames is what the instrument recorded in one turn, in milliseconds on
// the page's clock (performance.now()): per frame its begin time (the
// requestAnimationFrame timestamp), when its rendering had laid the page
// out (what it paints was read then), when it was painted (the task after
// its rendering; < 0: not stamped), the answer's characters when the
// frame changed the answer (< 0: unchanged) and whether the done selector
// matched.
type Frames struct {
	// T0 is the click (or Enter) as the page's event loop saw it; < 0
	// when the page saw none.
	T0      float64
	Begin   []float64
	Layout  []float64
	Painted []float64
	Chars   []int
	Done    []bool
}

// Wire is the page's answer stream as the browser received it, in
// milliseconds on the page's clock.
type Wire struct {
	URL    string
	Status int
	// Start is when the request was sent, Headers when its response
	// headers arrived; End when it finished (< 0: it did not).
	Start, Headers, End float64
	Chunks              []Chunk
	// Failed is why the request failed ("" when it did not).
	Failed string
	// Conn is how its connection was set up.
	Conn Conn
}

// Conn is a request's connection set-up (DevTools' resource timing), in
// milliseconds: 0 and Reused on a connection the browser kept open.
type Conn struct {
	DNS, Connect, TLS float64
	Reused            bool
}

// Chunk is one piece of the stream: when it arrived, its bytes and
// whether it carried answer text.
type Chunk struct {
	At    float64
	Bytes int
	Text  bool
}

// Arrival is a chunk of the answer stream that carried answer text: when
// it arrived (from t0) and the bytes of such chunks received until then.
type Arrival struct {
	At    time.Duration
	Bytes int
}

// Paint is a frame that changed the answer: when it was painted (from
// t0) and the answer's characters from then on.
type Paint struct {
	At    time.Duration
	Chars int
}

// Metrics is what a turn measured; every time is from t0, Missing when
// not observed (docs/metrics.md).
type Metrics struct {
	// TTFT is the first frame that showed answer text, Total the last
	// that changed it, Paints every frame that changed it.
	TTFT, Total time.Duration
	Paints      []Paint
	// PaintedChars is the answer's characters at the end.
	PaintedChars int
	// LongFrames counts the frames over LongFrame between t0 and the last
	// paint; MaxFrame is the longest frame then.
	LongFrames int
	MaxFrame   time.Duration
	// Stream is the page's answer stream (Found false when none was seen).
	Stream StreamMetrics
	// Client is TTFT − Stream.FirstText, ClientEnd Total − Stream.End.
	Client, ClientEnd time.Duration
	// Buffered: the page showed nothing until its stream had ended, then
	// (nearly) the whole answer in one paint (buffered).
	Buffered bool
}

// StreamMetrics are the answer stream's times from t0.
type StreamMetrics struct {
	Found  bool
	URL    string
	Status int
	// DNS, Connect and TLS are its connection's set-up (0 when Reused).
	DNS, Connect, TLS  time.Duration
	Reused             bool
	TTFB, FirstText    time.Duration
	End                time.Duration
	Chunks, TextChunks int
	// Received is the stream's chunks that carried answer text.
	Received []Arrival
}

// ITL is the gaps between the frames that changed the answer.
func (m Metrics) ITL() []time.Duration {
	var gaps []time.Duration
	for i := 1; i < len(m.Paints); i++ {
		gaps = append(gaps, m.Paints[i].At-m.Paints[i-1].At)
	}
	return gaps
}

// ms turns page milliseconds from t0 into a duration.
func ms(at, t0 float64) time.Duration {
	return time.Duration(math.Round((at - t0) * float64(time.Millisecond)))
}

// Derive computes a turn's metrics from its frames and its answer stream
// (nil when none was found). It is pure: every time comes from the
// recording.
func Derive(f Frames, w *Wire) Metrics {
	m := Metrics{TTFT: Missing, Total: Missing, MaxFrame: Missing, Client: Missing, ClientEnd: Missing}
	m.Stream = streamMetrics(w, f.T0)
	if f.T0 < 0 {
		return m
	}
	for i := range f.Begin {
		if f.Chars[i] < 0 {
			continue
		}
		at := paintedAt(f, i)
		if at < f.T0 || (m.TTFT == Missing && f.Chars[i] == 0) {
			continue
		}
		d := ms(at, f.T0)
		if m.TTFT == Missing {
			m.TTFT = d
		}
		m.Total, m.PaintedChars = d, f.Chars[i]
		m.Paints = append(m.Paints, Paint{At: d, Chars: f.Chars[i]})
	}
	m.LongFrames, m.MaxFrame = longFrames(f, m.Total)
	s := m.Stream
	if s.FirstText != Missing && m.TTFT != Missing {
		m.Client = m.TTFT - s.FirstText
	}
	if s.End != Missing && m.Total != Missing {
		m.ClientEnd = m.Total - s.End
	}
	m.Buffered = buffered(m, s)
	return m
}

// buffered reports whether the page showed nothing until its stream had
// ended and then most of the answer at once (its first paint nine tenths
// of the text or more): a page that waits for the whole answer. A page
// busy enough to fall behind its stream paints its first text after the
// end too, but then the rest paint by paint: users see it stream, late
// (its client stage says how late).
func buffered(m Metrics, s StreamMetrics) bool {
	if s.End == Missing || m.TTFT == Missing || m.TTFT < s.End || len(m.Paints) == 0 {
		return false
	}
	return 10*m.Paints[0].Chars >= 9*m.PaintedChars
}

// paintedAt is when frame i was painted: its post-frame stamp, or when
// it has none (the turn ended first) its layout's, else its begin.
func paintedAt(f Frames, i int) float64 {
	switch {
	case f.Painted[i] >= 0:
		return f.Painted[i]
	case f.Layout[i] >= 0:
		return f.Layout[i]
	}
	return f.Begin[i]
}

// longFrames counts the frames over LongFrame that overlap t0 to the last
// paint (to the last frame when nothing was painted) and returns the
// longest of them. A frame lasts from its begin to the next frame's, or
// from its paint to the next frame's paint when that is longer: the begin
// is the requestAnimationFrame timestamp, the display's vsync the frame
// was begun for, which for a frame late behind a long task can be a vsync
// before the main thread got to it (40 ms of work between two frames
// reads 33.3 ms from begin to begin, at least 40 from paint to paint).
func longFrames(f Frames, total time.Duration) (int, time.Duration) {
	end := math.Inf(1)
	if total != Missing {
		end = f.T0 + float64(total)/float64(time.Millisecond)
	}
	n, longest := 0, Missing
	for i := 1; i < len(f.Begin); i++ {
		if f.Begin[i] <= f.T0 || f.Begin[i-1] >= end {
			continue
		}
		d := ms(f.Begin[i], f.Begin[i-1])
		if f.Painted[i] >= 0 && f.Painted[i-1] >= 0 {
			d = max(d, ms(f.Painted[i], f.Painted[i-1]))
		}
		if d > LongFrame {
			n++
		}
		longest = max(longest, d)
	}
	return n, longest
}

// streamMetrics times w from t0.
func streamMetrics(w *Wire, t0 float64) StreamMetrics {
	s := StreamMetrics{TTFB: Missing, FirstText: Missing, End: Missing}
	if w == nil || t0 < 0 {
		return s
	}
	s.Found, s.URL, s.Status, s.Reused = true, w.URL, w.Status, w.Conn.Reused
	s.DNS, s.Connect, s.TLS = ms(w.Conn.DNS, 0), ms(w.Conn.Connect, 0), ms(w.Conn.TLS, 0)
	if w.Headers >= 0 {
		s.TTFB = ms(w.Headers, t0)
	}
	bytes := 0
	for _, c := range w.Chunks {
		s.Chunks++
		if c.Text {
			s.TextChunks++
			if s.FirstText == Missing {
				s.FirstText = ms(c.At, t0)
			}
			bytes += c.Bytes
			s.Received = append(s.Received, Arrival{At: ms(c.At, t0), Bytes: bytes})
		}
	}
	if w.End >= 0 && w.Failed == "" {
		s.End = ms(w.End, t0)
	}
	return s
}
