package fileio

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// charged is what the scan counts reading the file at path would hold.
func charged(t testing.TB, path string) (charge, size int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newScanner(b, nil, int64(len(b)))
	if !s.document() {
		t.Fatalf("%s: %v", path, s.err.message(path, "results", positionIn(b)))
	}
	return s.charged, int64(len(b))
}

// TestReadHoldsWhatItCharges: what Read holds once it has read a file
// (the live heap after a collection) is at most what the scan charged for
// it, and what it allocates on the way (its text, the decoded values and
// the slices outgrown) at most twice the file and the charge: so that
// ReadLimit bounds reading's memory. Each of the costliest files we could
// craft, at 4 MiB.
func TestReadHoldsWhatItCharges(t *testing.T) { // not parallel: it counts the process's allocations
	dir := t.TempDir()
	for name, sh := range worstShapes(t) {
		if strings.HasSuffix(name, "-refused") {
			continue
		}
		path := filepath.Join(dir, name+".json")
		writeShape(t, path, sh, 4<<20)
		charge, size := charged(t, path)
		runtime.GC()
		var before, after, held runtime.MemStats
		runtime.ReadMemStats(&before)
		f, err := Read(path)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&held)
		runtime.KeepAlive(f)
		live, allocated := int64(held.HeapAlloc)-int64(before.HeapAlloc), int64(after.TotalAlloc-before.TotalAlloc)
		t.Logf("%-13s %d bytes: charged %d (%.2f a byte), held %d, allocated %d", name, size, charge, float64(charge)/float64(size), live, allocated)
		if live > charge+1<<20 { // 1 MiB: the runtime's own, beside the file's
			t.Errorf("%s: Read holds %d bytes, charged %d", name, live, charge)
		}
		if allocated > 2*(size+charge) {
			t.Errorf("%s: Read allocated %d bytes for a file of %d charged %d", name, allocated, size, charge)
		}
	}
}

// TestRealFilesWellWithinTheLimit: results files as latgate writes them,
// of every kind of request, the densest included (failed requests, all
// null; a buffering proxy's answer, every gap 0), are charged less than
// ReadPerByte bytes for each of their bytes: read whatever their size,
// up to MaxFileSize.
func TestRealFilesWellWithinTheLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, f := range realFiles() {
		path := filepath.Join(dir, name+".json")
		if err := Write(path, f); err != nil {
			t.Fatal(err)
		}
		charge, size := charged(t, path)
		perByte := float64(charge) / float64(size)
		t.Logf("%-9s %9d bytes, %.2f charged a byte", name, size, perByte)
		if perByte >= ReadPerByte {
			t.Errorf("%s: %.2f charged a byte: a larger file of such requests would be refused", name, perByte)
		}
		if _, err := Read(path); err != nil {
			t.Error(err)
		}
	}
}

// realFiles are results files of 2,000 requests of each kind latgate
// measures, as it writes them: times to the microsecond.
func realFiles() map[string]*results.File {
	rng := rand.New(rand.NewPCG(1, 2))
	ms := func(lo, hi float64) *float64 { v := math.Round((lo+rng.Float64()*(hi-lo))*1e3) / 1e3; return &v }
	gaps := func(n int, lo, hi float64) []float64 {
		g := make([]float64, n)
		for i := range g {
			g[i] = *ms(lo, hi)
		}
		return g
	}
	file := func(api string, each func(i int) results.Request) *results.File {
		run := results.Run{Endpoint: "prod", Scenario: "chat", Model: "gpt-x", Fingerprint: "sha256:" + strings.Repeat("0f", 32),
			FingerprintParts: map[string]string{"api": api, "model": "gpt-x", "max_tokens": "256", "prompt": "sha256:" + strings.Repeat("ab", 8)},
			Config:           results.RunConfig{MaxTokens: 256, Concurrency: 4, Requests: 2000, ReadingRate: 20}}
		for i := range 2000 {
			q := each(i)
			q.SentMs = *ms(0, 1e6)
			run.Requests = append(run.Requests, q)
		}
		return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "1.0.0", Runs: []results.Run{run}}
	}
	ok := func(tokens int, gap func(int) []float64) results.Request {
		return results.Request{OK: true, Status: 200, TTFBMs: ms(80, 90), FirstEventMs: ms(90, 100), TTFTMs: ms(100, 400), TTFCMs: ms(100, 400),
			TotalMs: ms(400, 4000), PerceivedMs: ms(100, 400), TPOTMs: ms(5, 20), MaxStallMs: ms(5, 50), ITLMs: gap(tokens),
			OutputTokens: tokens, PromptTokens: 180, TokensSource: "usage", Reused: true}
	}
	tiny := 0.0
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 480, 300)), nil); err != nil {
		panic(err)
	}
	shot := base64.StdEncoding.EncodeToString(jpg.Bytes())
	return map[string]*results.File{
		"chat": file("chat", func(int) results.Request { return ok(32, func(n int) []float64 { return gaps(n-1, 5, 20) }) }),
		"failed": file("chat", func(i int) results.Request {
			return results.Request{Error: "connection refused", Failure: vocab.Connection, ConnectMs: *ms(0, 1)}
		}),
		"buffered": file("chat", func(int) results.Request {
			q := ok(1000, func(n int) []float64 { return make([]float64, n-1) })
			q.Buffered = true
			return q
		}),
		"browser": file("browser", func(i int) results.Request {
			q := ok(64, func(n int) []float64 { return gaps(n-1, 16, 17) })
			q.Stream = &results.PageStream{TTFBMs: ms(50, 60), FirstTextMs: ms(90, 100), EndMs: ms(300, 400)}
			q.ClientMs, q.ClientEndMs, q.PaintedChars = ms(5, 10), ms(5, 10), new(int)
			if i < 4 {
				tl := &results.PageTimeline{}
				for k := range results.MaxTimelinePoints {
					tl.Painted = append(tl.Painted, [2]float64{tiny + float64(k), float64(k % 10)})
					tl.Received = append(tl.Received, [2]float64{tiny + float64(k), float64(k % 10)})
				}
				q.PageTimeline = tl
				q.Screenshots = []results.Screenshot{{At: vocab.FirstPaint, JPEG: shot}, {At: vocab.End, JPEG: shot}}
			}
			return q
		}),
		"sessions": file("chat", func(int) results.Request {
			q := ok(24, func(n int) []float64 { return gaps(n-1, 5, 20) })
			steps := 5
			q.StepCount, q.SessionEnd, q.AnswerMs, q.SessionMs, q.ToolMs = &steps, "answer", ms(900, 1000), ms(1000, 2000), ms(10, 20)
			for k := range steps {
				q.Steps = append(q.Steps, results.Step{Turn: k / 2, StartMs: *ms(0, 1000), TTFTMs: ms(100, 200), TTFCMs: ms(100, 200),
					TotalMs: ms(200, 300), ToolCalls: 1, Tools: []string{fmt.Sprint("search", k)}, ToolMs: *ms(1, 9), OutputTokens: 5, PromptTokens: 300})
			}
			return q
		}),
	}
}
