package results

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestGapsDecodeAsJSON: gaps decode to the bit as encoding/json decodes a
// []float64 (null, empty, numbers of every form), into a slice of their
// count, reusing the room there is.
func TestGapsDecodeAsJSON(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var nums []string
	for range 20000 {
		v := math.Round(rng.ExpFloat64()*50*1e3) / 1e3
		nums = append(nums, strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(v*1e-9, 'g', -1, 64), strconv.FormatFloat(rng.Float64(), 'f', -1, 64))
	}
	nums = append(nums, "0", "-0", "0.0", "1e3", "1E-3", "123456789012345", "1234567890123456", "0.1234567890123456789012", "9007199254740993",
		"1.7976931348623157e308", "5e-324", "4.9e-324", "2.2250738585072011e-308", "100.000", "-12.5")
	for _, doc := range []string{"null", "[]", " [ ] ", "[0]", "[ 1 , 2 ]", "[\n1,\t2\r]", "[" + strings.Join(nums, ",") + "]"} {
		var want []float64
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		var got Gaps
		if err := json.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatalf("%.40s: %v", doc, err)
		}
		if (got == nil) != (want == nil) || len(got) != len(want) || cap(got) != len(got) {
			t.Fatalf("%.40s: %d gaps (room %d, nil %v), want %d (nil %v)", doc, len(got), cap(got), got == nil, len(want), want == nil)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("%s: %v, want %v", nums[i], got[i], want[i])
			}
		}
	}
	room := make(Gaps, 5, 8)
	before := &room[:1][0]
	if err := json.Unmarshal([]byte("[1,2,3]"), &room); err != nil || &room[0] != before || !reflect.DeepEqual(room, Gaps{1, 2, 3}) {
		t.Errorf("into room for them: %v, %v (same array: %v)", room, err, &room[0] == before)
	}
	for _, bad := range []string{`"x"`, `{}`, `[1,"x"]`, `[1,,2]`, `[1 2]`, `[01]`, `[+1]`, `[1e999]`, `[.5]`, `[0x10]`, `[Inf]`} {
		var g Gaps
		if err := json.Unmarshal([]byte(bad), &g); err == nil {
			t.Errorf("%s: decoded to %v", bad, g)
		}
	}
}

// FuzzGaps: whatever the bytes, gaps decode as a []float64 does, or both
// refuse them.
func FuzzGaps(f *testing.F) {
	for _, s := range []string{"[1,2.5,-3e2]", "null", "[]", "[0.000001,123456.789]", "[1e400]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want []float64
		werr := json.Unmarshal(b, &want)
		var got Gaps
		gerr := json.Unmarshal(b, &got)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: %v, want %v", b, gerr, werr)
		}
		if werr == nil && (len(got) != len(want) || (got == nil) != (want == nil)) {
			t.Fatalf("%q: %v, want %v", b, got, want)
		}
		for i := range want {
			if werr == nil && math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%q: %v, want %v", b, got, want)
			}
		}
	})
}
