package workload

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func opener(s string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
}

// mooncakeTrace writes lines of Mooncake JSONL: entry i has input
// inputs(i), a session when session(i) is not "".
func mooncakeTrace(n int, inputs func(int) int, session func(int) string) []string {
	out := make([]string, n)
	for i := range n {
		s := ""
		if id := session(i); id != "" {
			s = fmt.Sprintf(`,"session_id":%q`, id)
		}
		out[i] = fmt.Sprintf(`{"timestamp":%d,"input_length":%d,"output_length":%d,"hash_ids":[%d]%s}`, i*10, inputs(i), 1+i%7, i, s)
	}
	return out
}

func noSession(int) string { return "" }

func mustSample(t *testing.T, trace string, n int) Draw {
	t.Helper()
	d, err := Sample(opener(trace), "t", "", n)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// withoutLines is a draw's entries with their lines cleared.
func withoutLines(d Draw) []Entry {
	es := slices.Clone(d.Entries)
	for i := range es {
		es[i].Line = 0
	}
	slices.SortFunc(es, func(a, b Entry) int { return cmp.Compare(entryKey(a), entryKey(b)) })
	return es
}

// TestSampleDeterministic: the same trace draws the same sample; the same
// entries in another order draw the same entries (their lines aside),
// with the same seed; another trace, another seed.
func TestSampleDeterministic(t *testing.T) {
	lines := mooncakeTrace(3000, func(i int) int { return 1 + (i*7919)%20000 }, noSession)
	trace := strings.Join(lines, "\n")
	a, b := mustSample(t, trace, 200), mustSample(t, trace, 200)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same trace drew two samples")
	}
	if len(a.Entries) != 200 || a.Lines != 3000 || a.Format != "mooncake" || len(a.Seed) != 16 {
		t.Fatalf("draw: %d entries of %d lines, format %q, seed %q", len(a.Entries), a.Lines, a.Format, a.Seed)
	}
	shuffled := slices.Clone(lines)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	c := mustSample(t, strings.Join(shuffled, "\n"), 200)
	if !reflect.DeepEqual(withoutLines(a), withoutLines(c)) || a.Seed != c.Seed {
		t.Error("a reordered copy drew other entries or another seed")
	}
	d := mustSample(t, strings.Join(lines[1:], "\n"), 200)
	if d.Seed == a.Seed {
		t.Error("a trace without its first line has the same seed")
	}
	if !slices.IsSortedFunc(a.Entries, func(x, y Entry) int { return int(x.At - y.At) }) || a.Entries[0].At < 0 {
		t.Error("entries not sorted by At from the earliest")
	}
}

// TestSampleProportional: each power-of-2 bucket of input length gets
// its share of n by largest remainders: buckets of 600, 300 and 100
// entries out of 1000 give 60, 30 and 10 of 100; 500/333/167 of 1000
// give 50, 33, 17 of 100 (remainders .0, .3, .7).
func TestSampleProportional(t *testing.T) {
	for _, c := range []struct {
		counts, want []int
	}{
		{[]int{600, 300, 100}, []int{60, 30, 10}},
		{[]int{500, 333, 167}, []int{50, 33, 17}},
	} {
		inputs := []int{100, 1000, 10000} // buckets 7, 10, 14
		var which []int
		for b, n := range c.counts {
			for range n {
				which = append(which, b)
			}
		}
		rand.New(rand.NewPCG(3, 4)).Shuffle(len(which), func(i, j int) { which[i], which[j] = which[j], which[i] })
		trace := strings.Join(mooncakeTrace(len(which), func(i int) int { return inputs[which[i]] + i%5 }, noSession), "\n")
		d := mustSample(t, trace, 100)
		got := make([]int, 3)
		for _, e := range d.Entries {
			got[slices.Index([]int{bucketOf(100), bucketOf(1000), bucketOf(10000)}, bucketOf(e.Input))]++
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("counts %v: drew %v per bucket, want %v", c.counts, got, c.want)
		}
	}
}

// TestSampleSessions: sessions are drawn whole (every turn, at most n),
// stratified by their first turn; the draw stays near n.
func TestSampleSessions(t *testing.T) {
	// 2000 entries: 400 sessions of 1 to 5 turns spread across the trace
	// (a session's turns are i, i+400, ...), and single entries.
	session := func(i int) string {
		s := i % 400
		if i/400 < 1+s%5 {
			return fmt.Sprintf("s%d", s)
		}
		return ""
	}
	trace := strings.Join(mooncakeTrace(2000, func(i int) int { return 50 + (i*37)%5000 }, session), "\n")
	d := mustSample(t, trace, 300)
	if d.Sessions != 400 {
		t.Errorf("sessions: %d, want 400", d.Sessions)
	}
	turns := map[string]int{}
	for _, e := range d.Entries {
		if e.Session != "" {
			turns[e.Session]++
		}
	}
	if len(turns) == 0 || len(turns) == len(d.Entries) {
		t.Fatalf("drew %d sessions among %d entries", len(turns), len(d.Entries))
	}
	for s, n := range turns {
		var id int
		fmt.Sscanf(s, "s%d", &id)
		if n != 1+id%5 {
			t.Errorf("session %s: %d turns drawn of %d", s, n, 1+id%5)
		}
	}
	if n := len(d.Entries); n < 290 || n > 310 {
		t.Errorf("drew %d requests for 300", n)
	}
	// A session longer than n is cut to its first n turns.
	long := strings.Join(mooncakeTrace(50, func(int) int { return 10 }, func(int) string { return "one" }), "\n")
	e := mustSample(t, long, 20).Entries
	if len(e) != 20 || e[0].Line != 1 || e[19].Line != 20 {
		t.Errorf("a session of 50 turns, n 20: drew %d, lines %d to %d", len(e), e[0].Line, e[len(e)-1].Line)
	}
}

// TestSampleAll: n at least the trace's entries takes them all; the
// skipped are counted, not drawn.
func TestSampleAll(t *testing.T) {
	d := mustSample(t, fixture(t, "burstgpt.csv"), 10)
	want := []Entry{{Line: 2, At: 0, Input: 212, Output: 35}, {Line: 4, At: 94 * time.Second, Input: 640, Output: 411}}
	if !reflect.DeepEqual(d.Entries, want) || d.Skipped != 1 || d.Lines != 2 || !reflect.DeepEqual(d.Strata, []int{640}) {
		t.Errorf("got %+v", d)
	}
	if _, err := Sample(opener("Timestamp,Request tokens,Response tokens\n1,5,0\n"), "t", "", 5); err == nil || err.Error() != "t: no entries (1 skipped): nothing to draw" {
		t.Errorf("all skipped: %v", err)
	}
}

// TestReportStrata: up to 4 strata of nearly equal count, a bound a
// value: ties at a bound stay in its stratum.
func TestReportStrata(t *testing.T) {
	mk := func(inputs ...int) []Entry {
		es := make([]Entry, len(inputs))
		for i, n := range inputs {
			es[i].Input = n
		}
		return es
	}
	seq := func(n int, f func(int) int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	for _, c := range []struct {
		in   []int
		want []int
	}{
		{seq(49, func(i int) int { return i }), []int{48}},
		{seq(100, func(i int) int { return i }), []int{49, 99}},
		{seq(400, func(i int) int { return i }), []int{99, 199, 299, 399}},
		{seq(400, func(i int) int { return min(i, 250) }), []int{99, 199, 250}},
		{seq(200, func(int) int { return 7 }), []int{7}},
	} {
		got := reportStrata(mk(c.in...))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d inputs: strata %v, want %v", len(c.in), got, c.want)
		}
		d := Draw{Strata: got}
		for _, n := range c.in {
			if s := d.Stratum(n); s < 1 || n > got[s-1] || s > 1 && n <= got[s-2] {
				t.Errorf("input %d in stratum %d of %v", n, s, got)
			}
		}
	}
}

// TestSampleChanged: a trace that changes between the two passes is an
// error, not a mixed draw.
func TestSampleChanged(t *testing.T) {
	traces := []string{
		strings.Join(mooncakeTrace(100, func(i int) int { return 10 + i }, noSession), "\n"),
		strings.Join(mooncakeTrace(101, func(i int) int { return 10 + i }, noSession), "\n"),
	}
	calls := 0
	open := func() (io.ReadCloser, error) {
		calls++
		return io.NopCloser(strings.NewReader(traces[min(calls-1, 1)])), nil
	}
	if _, err := Sample(open, "t", "", 10); err == nil || err.Error() != "t: changed while it was read (100 entries, then 101): read it again" {
		t.Errorf("got %v", err)
	}
}

// TestSampleHashesBounded: the entries a draw keeps hold at most
// MaxDrawHashes hash_ids, whatever the trace holds: more is an error
// naming the file, the line and the field.
func TestSampleHashesBounded(t *testing.T) {
	defer func(n int) { MaxDrawHashes = n }(MaxDrawHashes)
	MaxDrawHashes = 50
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, `{"timestamp": %d, "input_length": 100, "output_length": 1, "hash_ids": [%d, %d, %d, %d, %d]}`+"\n", i, 5*i, 5*i+1, 5*i+2, 5*i+3, 5*i+4)
	}
	open := func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(b.String())), nil }
	if _, err := Sample(open, "t.jsonl", "", 10); err != nil {
		t.Fatalf("10 entries of 5 hash_ids: %v", err)
	}
	_, err := Sample(open, "t.jsonl", "", 11)
	if err == nil || !strings.Contains(err.Error(), "hash_ids: the entries drawn hold more than 50 hash_ids: lower sample") {
		t.Errorf("11 entries of 5 hash_ids, at most 50: %v", err)
	}
}
