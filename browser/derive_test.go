package browser

import (
	"slices"
	"testing"
	"time"
)

// frames builds a recording: frames begin every 16.7 ms from begin0, are
// laid out 1 ms and painted 2 ms after they begin; changes maps a frame
// index to the answer's characters it painted.
func frames(t0 float64, n int, begin0 float64, changes map[int]int) Frames {
	f := Frames{T0: t0}
	for i := range n {
		b := begin0 + float64(i)*16.7
		f.Begin = append(f.Begin, b)
		f.Layout = append(f.Layout, b+1)
		f.Painted = append(f.Painted, b+2)
		c, ok := changes[i]
		if !ok {
			c = -1
		}
		f.Chars = append(f.Chars, c)
		f.Done = append(f.Done, false)
	}
	return f
}

func msd(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// TestDerive: the painted times, the client stage and the stream's times
// from one recording, worked by hand.
func TestDerive(t *testing.T) {
	t.Parallel()
	// t0 at 100; frames at 90, 106.7, 123.4, …; the answer shows in frame
	// 12 (begin 290.4, painted 292.4), grows in frames 13 and 15.
	f := frames(100, 30, 90, map[int]int{12: 5, 13: 9, 15: 14})
	w := &Wire{URL: "/api/chat", Status: 200, Start: 101, Headers: 110, End: 330,
		Chunks: []Chunk{{At: 111, Bytes: 40}, {At: 280, Bytes: 30, Text: true}, {At: 300, Bytes: 30, Text: true}}}
	m := Derive(f, w)
	// Frames 12, 13 and 15 begin at 290.4, 307.1 and 340.5 and are
	// painted 2 ms later: 192.4, 209.1 and 242.5 from t0.
	want := Metrics{TTFT: msd(192.4), Total: msd(242.5), PaintedChars: 14, LongFrames: 0, MaxFrame: msd(16.7),
		Paints: []Paint{{msd(192.4), 5}, {msd(209.1), 9}, {msd(242.5), 14}},
		Stream: StreamMetrics{Found: true, URL: "/api/chat", Status: 200, TTFB: msd(10), FirstText: msd(180), End: msd(230), Chunks: 3, TextChunks: 2,
			Received: []Arrival{{msd(180), 30}, {msd(200), 60}}},
		Client: msd(12.4), ClientEnd: msd(12.5)}
	if !near(m, want) {
		t.Errorf("Derive:\n got %+v\nwant %+v", m, want)
	}
	if gaps := m.ITL(); !slices.Equal(round(gaps), round([]time.Duration{msd(16.7), msd(33.4)})) {
		t.Errorf("ITL %v, want [16.7ms 33.4ms]", gaps)
	}
}

func round(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(10 * time.Microsecond)
	}
	return out
}

// near compares metrics to the 10 µs (float milliseconds in, durations
// out).
func near(a, b Metrics) bool {
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	if r(a.TTFT) != r(b.TTFT) || r(a.Total) != r(b.Total) || r(a.Client) != r(b.Client) || r(a.ClientEnd) != r(b.ClientEnd) ||
		r(a.MaxFrame) != r(b.MaxFrame) || a.LongFrames != b.LongFrames || a.PaintedChars != b.PaintedChars || a.Buffered != b.Buffered {
		return false
	}
	sa, sb := a.Stream, b.Stream
	if sa.Found != sb.Found || sa.URL != sb.URL || sa.Status != sb.Status || r(sa.TTFB) != r(sb.TTFB) ||
		r(sa.FirstText) != r(sb.FirstText) || r(sa.End) != r(sb.End) || sa.Chunks != sb.Chunks || sa.TextChunks != sb.TextChunks {
		return false
	}
	if len(a.Paints) != len(b.Paints) || len(sa.Received) != len(sb.Received) {
		return false
	}
	for i := range sa.Received {
		if r(sa.Received[i].At) != r(sb.Received[i].At) || sa.Received[i].Bytes != sb.Received[i].Bytes {
			return false
		}
	}
	for i := range a.Paints {
		if r(a.Paints[i].At) != r(b.Paints[i].At) || a.Paints[i].Chars != b.Paints[i].Chars {
			return false
		}
	}
	return true
}

// TestDeriveBuffered: a page that shows the answer only after its stream
// ended is buffered; its client stage is the whole wait.
func TestDeriveBuffered(t *testing.T) {
	t.Parallel()
	f := frames(0, 40, 1, map[int]int{30: 120})
	w := &Wire{Status: 200, Headers: 5, End: 480, Chunks: []Chunk{{At: 200, Text: true}, {At: 470, Text: true}}}
	m := Derive(f, w)
	if !m.Buffered || m.TTFT != m.Total || m.Client != m.TTFT-msd(200) || m.PaintedChars != 120 {
		t.Errorf("buffered page: %+v", m)
	}
	f = frames(0, 40, 1, map[int]int{12: 3, 30: 120})
	if m := Derive(f, w); m.Buffered {
		t.Errorf("a page that showed text at %v, before its stream ended (480 ms), is not buffered", m.TTFT)
	}
	// A page busy enough to fall behind its stream paints its first text
	// after the end, then the rest paint by paint: it streams, late.
	f = frames(0, 40, 1, map[int]int{30: 10, 32: 60, 34: 120})
	if m := Derive(f, w); m.Buffered || m.TTFT < msd(480) || len(m.Paints) != 3 {
		t.Errorf("a page that painted 10, 60 and 120 characters from %v, after its stream ended (480 ms): buffered %v, %d paints: want streamed late", m.TTFT, m.Buffered, len(m.Paints))
	}
}

// TestDeriveLongFrames: a frame lasts to the next one's begin; frames
// over 50 ms count between t0 and the last paint, not before or after.
func TestDeriveLongFrames(t *testing.T) {
	t.Parallel()
	f := Frames{T0: 100,
		Begin:   []float64{10, 80, 116.7, 133.4, 200, 216.7, 290, 306.7, 400},
		Layout:  []float64{11, 81, 117, 134, 201, 217, 291, 307, 401},
		Painted: []float64{12, 82, 118.7, 135.4, 202, 218.7, 292, 308.7, 402},
		Chars:   []int{-1, -1, -1, 4, -1, -1, 9, -1, -1},
		Done:    make([]bool, 9)}
	m := Derive(f, nil)
	// 10→80 (70 ms) ended before t0: out; 80→116.7 overlaps t0 (36.7);
	// 133.4→200 (66.6) and 216.7→290 (73.3) are long; 290→306.7 is the
	// last paint's frame (16.7); 306.7→400 (93.3) begins after the last
	// paint (292): out.
	if m.LongFrames != 2 || m.MaxFrame.Round(100*time.Microsecond) != msd(73.3).Round(100*time.Microsecond) {
		t.Errorf("long frames %d, longest %v; want 2, 73.3ms", m.LongFrames, m.MaxFrame)
	}
	if m.Stream.Found || m.Client != Missing || m.ClientEnd != Missing || m.Buffered {
		t.Errorf("no stream: %+v", m)
	}
	// A frame behind 40 ms of work (a task from 135 to 175) is begun for
	// the vsync it missed (166.8): 33.4 ms from begin to begin, 42 from
	// paint to paint, which is its length.
	f = Frames{T0: 100,
		Begin:   []float64{100.1, 116.8, 133.4, 166.8, 183.5},
		Layout:  []float64{101, 117.5, 134, 176, 184},
		Painted: []float64{101.5, 118, 134.5, 176.5, 184.5},
		Chars:   []int{-1, 3, -1, 7, -1},
		Done:    make([]bool, 5)}
	if m := Derive(f, nil); m.LongFrames != 0 || m.MaxFrame.Round(100*time.Microsecond) != msd(42).Round(100*time.Microsecond) {
		t.Errorf("late frame: long frames %d, longest %v; want 0, 42ms", m.LongFrames, m.MaxFrame)
	}
}

// TestDeriveNothing: no click seen, or no text painted, leaves every time
// missing; a cleared answer after the first text is a change.
func TestDeriveNothing(t *testing.T) {
	t.Parallel()
	if m := Derive(frames(-1, 10, 0, map[int]int{5: 3}), nil); m.TTFT != Missing || m.Total != Missing || m.Paints != nil {
		t.Errorf("no click: %+v", m)
	}
	if m := Derive(frames(0, 10, 0, map[int]int{2: 0}), nil); m.TTFT != Missing || m.PaintedChars != 0 {
		t.Errorf("no text: %+v", m)
	}
	m := Derive(frames(0, 10, 0, map[int]int{2: 3, 4: 0}), nil)
	if m.TTFT != msd(2*16.7+2) || m.Total != msd(4*16.7+2) || m.PaintedChars != 0 || len(m.Paints) != 2 {
		t.Errorf("cleared answer: %+v", m)
	}
	// A paint before t0 (a page that showed text before the click) is
	// not the answer.
	if m := Derive(frames(50, 10, 0, map[int]int{1: 3, 5: 8}), nil); m.TTFT != msd(5*16.7+2-50) {
		t.Errorf("paint before t0 counted: %+v", m)
	}
}
