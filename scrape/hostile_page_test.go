package scrape

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// maxParseBytes bounds what one scrape allocates beyond reading its
// page, whatever the page: 9 times MaxPage (docs/performance.md: the most
// a text page hands the parser).
const maxParseBytes = 9 * MaxPage

// allocated is what Read of page allocates. The test that calls it runs
// alone (not parallel): the process's allocations are its own.
func allocated(t *testing.T, page, contentType string) uint64 {
	got, _ := readCost(t, page, contentType, vllm)
	return got
}

// readCost is what Read of page for names allocates, and the warnings it
// makes (alone, as allocated).
func readCost(t *testing.T, page, contentType string, names Names) (uint64, []string) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, warnings, err := Read(strings.NewReader(page), contentType, names)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("%.40q: %v", page, err)
	}
	return after.TotalAlloc - before.TotalAlloc, warnings
}

// TestReadMemoryBounded: beyond reading its page (as much as a page of
// comments costs), a scrape of any of the worst pages allocates at most
// maxParseBytes, and makes at most one warning per family read (with the
// times the page gave it); decoded whole, a protobuf page of a million
// tiny series took 227 MB and a text page of a million tiny samples 298
// MB, and a sample of 2,000 labels 176 MB (its labels checked in
// quadratic time); a protobuf page of 220,752 messages of a family read,
// of the wrong type, took 95 MB and made a warning each.
func TestReadMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 4 MiB pages")
	}
	pages := hostilePages()
	var sb strings.Builder
	sb.WriteString("vllm:num_requests_waiting{")
	for i := range 2000 {
		fmt.Fprintf(&sb, "a%x=\"\",", i)
	}
	sb.WriteString("} 1\n")
	pages = append(pages, struct{ name, contentType, page string }{"text/2000-labels", "text/plain", sb.String()})
	read := allocated(t, strings.Repeat("# a comment\n", MaxPage/12), "text/plain") // the page alone, as io.ReadAll grows it
	families := len(AnyEngine().all())
	for _, p := range pages {
		got, warnings := readCost(t, p.page, p.contentType, AnyEngine()) // every engine's names: tgi_queue_size too
		extra := got - min(got, read)
		if extra > maxParseBytes {
			t.Errorf("%s: a page of %d bytes allocated %d bytes, %d beyond reading it: over %d", p.name, len(p.page), got, extra, maxParseBytes)
		} else {
			t.Logf("%s: a page of %d bytes allocated %.1f MB (%.1f MB beyond reading it), %d warnings", p.name, len(p.page), float64(got)/1e6, float64(extra)/1e6, len(warnings))
		}
		if len(warnings) > families {
			t.Errorf("%s: %d warnings, more than one per family read (%d): %.300q", p.name, len(warnings), families, warnings)
		}
	}
}

// TestReadNamelessSample: labels without a metric name after a wanted
// family's TYPE line are refused as not a page (expfmt's parser
// dereferenced nil on them: a panic that ended the run).
func TestReadNamelessSample(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"# TYPE vllm:num_requests_waiting gauge\n{}\n", "# TYPE vllm:request_queue_time_seconds histogram\n  { engine=\"0\"} 1\n"} {
		if _, _, err := Read(strings.NewReader(page), "text/plain", vllm); err == nil || !strings.Contains(err.Error(), "not a Prometheus metrics page: line 2: labels without a metric name") {
			t.Errorf("%q: %v", page, err)
		}
	}
}
