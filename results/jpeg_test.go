package results

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// segment is a JPEG marker segment: FF, its marker, its length, p.
func segment(m byte, p ...byte) []byte {
	return append([]byte{0xFF, m, byte((len(p) + 2) >> 8), byte(len(p) + 2)}, p...)
}

// huffTable is a DHT segment's table of class tc (0 DC, 1 AC), number 0,
// of one symbol coded by the one-bit code "0".
func huffTable(tc, symbol byte) []byte {
	return append([]byte{tc << 4, 1}, append(make([]byte, 15), symbol)...)
}

// flatTables is a DQT segment of table 0, every step 1.
func flatTables() []byte {
	return segment(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...)
}

// progressiveJPEG is a valid progressive JPEG, 1024×1024 gray, of scans
// AC scans of two bytes each: one end-of-band run (EOB14, 16,384 blocks)
// over the whole image. A decoder visits every block in every scan; 8,000
// scans fit in 96 KiB.
func progressiveJPEG(scans int) []byte {
	b := append([]byte{0xFF, 0xD8}, flatTables()...)
	b = append(b, segment(0xC2, 8, 4, 0, 4, 0, 1, 1, 0x11, 0)...) // SOF2: 1024×1024, one component
	b = append(b, segment(0xC4, huffTable(1, 0xE0)...)...)        // AC: EOB14
	for range scans {
		b = append(b, segment(0xDA, 1, 1, 0x00, 1, 63, 0)...) // coefficients 1 to 63
		b = append(b, 0x00, 0x01)                             // "0", 14 zero bits (a run of 2^14), a padding 1
	}
	return append(b, 0xFF, 0xD9)
}

// The parts of a crafted baseline JPEG, by their index.
const (
	pSOI = iota
	pDQT
	pSOF
	pDHT
	pSOS
	pData
	pEOI
)

// baselineJPEG is a valid baseline JPEG of w×h pixels and comps
// components, each sampled 1×1, every block zero (a grey image), as its
// parts (pSOI…pEOI), restart markers every restart MCUs (0: none; the DRI
// segment is then part of pDHT's).
func baselineJPEG(w, h, comps, restart int) [][]byte {
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	sos := []byte{byte(comps)}
	for c := range comps {
		sof = append(sof, byte(c+1), 0x11, 0)
		sos = append(sos, byte(c+1), 0x00)
	}
	tables := append(segment(0xC4, huffTable(0, 0)...), segment(0xC4, huffTable(1, 0)...)...) // DC: size 0; AC: EOB
	if restart > 0 {
		tables = append(tables, segment(0xDD, byte(restart>>8), byte(restart))...)
	}
	return [][]byte{{0xFF, 0xD8}, flatTables(), segment(0xC0, sof...), tables,
		segment(0xDA, append(sos, 0, 63, 0)...), zeroBlocks((w+7)/8*((h+7)/8), comps, restart), {0xFF, 0xD9}}
}

// zeroBlocks is the entropy-coded data of mcus MCUs of comps blocks each,
// every block "0" (DC difference 0) then "0" (end of block), a restart
// marker every restart MCUs.
func zeroBlocks(mcus, comps, restart int) []byte {
	var out []byte
	var acc, n uint
	flush := func() { // pads with 1 bits to the byte (never a whole 0xFF)
		if n > 0 {
			out = append(out, byte(acc<<(8-n))|byte(0xFF>>n))
			acc, n = 0, 0
		}
	}
	for m := range mcus {
		if restart > 0 && m > 0 && m%restart == 0 {
			flush()
			out = append(out, 0xFF, byte(0xD0+(m/restart-1)%8))
		}
		for range 2 * comps {
			acc, n = acc<<1, n+1
			if n == 8 {
				out, acc, n = append(out, byte(acc)), 0, 0
			}
		}
	}
	flush()
	return out
}

func join(parts [][]byte) []byte { return bytes.Join(parts, nil) }

// cpuTime is the process's CPU time, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestProgressiveScreenshotRefused: a progressive JPEG of 8,000 scans that
// each cover the whole image, 96 KB, which Go's image/jpeg decodes (seconds
// of CPU for each such screenshot), is refused by its frame header, at the
// cost of a pass over its bytes. (Not parallel: the process's CPU is this
// test's.)
func TestProgressiveScreenshotRefused(t *testing.T) {
	if img, err := jpeg.Decode(bytes.NewReader(progressiveJPEG(3))); err != nil || img.Bounds().Dx() != 1024 {
		t.Fatalf("the crafted JPEG is not one: %v", err)
	}
	prog := progressiveJPEG(8000)
	if len(prog) > MaxScreenshotBytes {
		t.Fatalf("%d bytes: over a screenshot's bound", len(prog))
	}
	q := Request{Screenshots: []Screenshot{{At: vocab.End, JPEG: b64(prog)}}}
	start := cpuTime()
	err := q.Check()
	spent := cpuTime() - start
	const want = "screenshots[0].jpeg: a progressive JPEG (SOF2): a screenshot is a baseline JPEG (SOF0 or SOF1) of one scan, as latgate writes them"
	if err == nil || err.Error() != want {
		t.Errorf("a progressive JPEG of 8,000 scans: %v, want %q", err, want)
	}
	// The check reads 96 KB once (microseconds); the decode took seconds.
	if spent > 250*time.Millisecond {
		t.Errorf("checking it took %v of CPU: want a pass over its bytes", spent)
	}
}

// craft is a small baseline JPEG (64×64, colour) edited.
func craft(edit func(p [][]byte)) []byte {
	parts := baselineJPEG(64, 64, 3, 0)
	for i := range parts {
		parts[i] = bytes.Clone(parts[i])
	}
	edit(parts)
	return join(parts)
}

// TestScreenshotLayout: what latgate writes passes (Go's encoder, gray
// and colour; Chromium's in gate's browser tests), and any baseline or
// extended sequential JPEG of one scan: the largest, with restart markers,
// with application segments and comments. Whatever costs a decoder more
// than one pass over its pixels, or is no JPEG a browser shows whole, is
// refused by its markers, naming what: another kind of frame, a second
// scan, a scan of some components (a non-interleaved file has one per
// component) or of part of the spectrum, 12-bit samples, four components,
// an MCU of too many blocks, a missing table, an unknown marker, a cut
// file, bytes after its end.
func TestScreenshotLayout(t *testing.T) {
	t.Parallel()
	var gray bytes.Buffer
	if err := jpeg.Encode(&gray, image.NewGray(image.Rect(0, 0, 200, 120)), nil); err != nil {
		t.Fatal(err)
	}
	head := len(join(baselineJPEG(64, 64, 3, 0)[:pData])) // where the scan's data starts
	for _, tt := range []struct {
		name string
		jpeg []byte
		want string // "": accepted (and Go's image/jpeg decodes it)
	}{
		{"Go's colour", encodeJPEG(t, 480, 300), ""},
		{"Go's gray", gray.Bytes(), ""},
		{"the largest", join(baselineJPEG(1024, 1024, 3, 0)), ""},
		{"restart markers", join(baselineJPEG(640, 64, 3, 7)), ""},
		{"extended sequential", craft(func(p [][]byte) { p[pSOF][1] = 0xC1 }), ""},
		{"application segments and a comment", craft(func(p [][]byte) {
			p[pSOI] = join([][]byte{p[pSOI], segment(0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")...), segment(0xFE, []byte("made by hand")...)})
		}), ""},
		{"lossless", craft(func(p [][]byte) { p[pSOF][1] = 0xC3 }), "a lossless JPEG (SOF3): a screenshot is a baseline JPEG (SOF0 or SOF1) of one scan"},
		{"arithmetic-coded", craft(func(p [][]byte) { p[pSOF][1] = 0xC9 }), "an arithmetic-coded JPEG (SOF9)"},
		{"two scans", craft(func(p [][]byte) { p[pData] = join([][]byte{p[pData], p[pSOS], p[pData]}) }),
			fmt.Sprintf("a second scan (SOS at byte %d): a screenshot is a baseline JPEG of one scan", head+48)},
		{"a scan of one component", craft(func(p [][]byte) { p[pSOS] = segment(0xDA, 1, 1, 0x00, 0, 63, 0) }),
			"its scan covers 1 of its 3 components: a screenshot's one scan covers them all"},
		{"components out of order", craft(func(p [][]byte) { p[pSOS] = segment(0xDA, 3, 2, 0, 1, 0, 3, 0, 0, 63, 0) }),
			"its scan's component 0 is 2, the frame's is 1"},
		{"part of the spectrum", craft(func(p [][]byte) { p[pSOS][len(p[pSOS])-2] = 5 }), "its scan holds coefficients 0 to 5"},
		{"successive approximation", craft(func(p [][]byte) { p[pSOS][len(p[pSOS])-1] = 0x01 }), "its scan holds coefficients 0 to 63, approximation 0x01"},
		{"12-bit samples", craft(func(p [][]byte) { p[pSOF][1], p[pSOF][4] = 0xC1, 12 }), "a JPEG of 12-bit samples: a screenshot's are 8-bit"},
		{"four components", craft(func(p [][]byte) {
			p[pSOF] = segment(0xC0, 8, 0, 64, 0, 64, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0)
		}), "a JPEG of 4 components: a screenshot is gray (1) or colour (3)"},
		{"an MCU of 18 blocks", craft(func(p [][]byte) { p[pSOF][11] = 0x44 }), "an MCU of 18 blocks: at most 10"},
		{"sampled 0×1", craft(func(p [][]byte) { p[pSOF][11] = 0x01 }), "component 1 is sampled 0×1: from 1 to 4 a side"},
		{"a component twice", craft(func(p [][]byte) { p[pSOF][13] = 1 }), "component 1 appears twice in its frame header"},
		{"no height (a DNL's)", craft(func(p [][]byte) { p[pSOF][5], p[pSOF][6] = 0, 0 }), "a JPEG of 64×0 pixels: a screenshot is at most 1024 a side"},
		{"a second frame header", craft(func(p [][]byte) { p[pDHT] = join([][]byte{p[pDHT], p[pSOF]}) }), "a second frame header (SOF)"},
		{"no frame header", craft(func(p [][]byte) { p[pSOF] = nil }), "a scan (SOS) before its frame header (SOF)"},
		{"no Huffman tables", craft(func(p [][]byte) { p[pDHT] = nil }), "component 1 uses Huffman tables DC0 and AC0, which no DHT before its scan defines"},
		{"no quantization table", craft(func(p [][]byte) { p[pDQT] = nil }), "component 1 uses quantization table 0, which no DQT before its scan defines"},
		{"a bad Huffman table", craft(func(p [][]byte) { p[pDHT][4] = 0x20 }), "a Huffman table (DHT) of class 2, number 0, 1 codes in 18 bytes: not one"},
		{"a bad quantization table", craft(func(p [][]byte) { p[pDQT][4] = 0x20 }), "a quantization table (DQT) of precision 2, number 0, in 65 bytes: not one"},
		{"a bad restart interval", craft(func(p [][]byte) { p[pDHT] = append(p[pDHT], segment(0xDD, 7)...) }), "its restart interval (DRI) is 3 bytes long, not 4"},
		{"a frame header of the wrong length", craft(func(p [][]byte) { p[pSOF] = segment(0xC0, 8, 0, 64, 0, 64, 3, 1, 0x11, 0) }),
			"its frame header (SOF) is 11 bytes long: not one of its components"},
		{"a scan header of the wrong length", craft(func(p [][]byte) { p[pSOS] = segment(0xDA, 3, 1, 0, 0, 63, 0) }),
			"its scan header (SOS) is 8 bytes long: not one of its components"},
		{"an unknown marker", craft(func(p [][]byte) { p[pSOI] = append(p[pSOI], segment(0xCC, 0, 0)...) }), "marker FFCC at byte 2: not one of a baseline JPEG's"},
		{"a DNL after its scan", craft(func(p [][]byte) { p[pEOI] = append(segment(0xDC, 0, 64), p[pEOI]...) }),
			fmt.Sprintf("marker FFDC at byte %d, after its scan: a screenshot ends at its scan's end (EOI)", head+48)},
		{"bytes after its end", craft(func(p [][]byte) { p[pEOI] = append(p[pEOI], 0, 0, 0) }), "not a whole JPEG image (3 bytes after its end, EOI)"},
		{"no end", craft(func(p [][]byte) { p[pEOI] = nil }), "not a whole JPEG image (no EOI marker at its end)"},
		{"cut before its scan", join(baselineJPEG(64, 64, 3, 0)[:pSOF]), "not a whole JPEG image (cut at byte 71, before its scan)"},
		{"a segment past the end", craft(func(p [][]byte) { p[pDQT][2], p[pDQT][3] = 0xFF, 0xFF }),
			"not a whole JPEG image (its segment FFDB at byte 2 is 65535 bytes long"},
		{"too many segments", craft(func(p [][]byte) { p[pSOI] = append(p[pSOI], bytes.Repeat(segment(0xFE), maxSegments-4)...) }),
			"over 64 segments up to its scan: latgate's screenshots have about ten"},
		{"no marker where one belongs", craft(func(p [][]byte) { p[pDQT] = append(p[pDQT], 0) }),
			"not a whole JPEG image (byte 71 is 0x00 where a marker belongs)"},
	} {
		q := Request{Screenshots: []Screenshot{{At: vocab.End, JPEG: b64(tt.jpeg)}}}
		err := q.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want it accepted", tt.name, err)
		case tt.want == "":
			if _, err := jpeg.Decode(bytes.NewReader(tt.jpeg)); err != nil {
				t.Errorf("%s: accepted, but Go's image/jpeg: %v", tt.name, err)
			}
		case err == nil || !strings.Contains(err.Error(), "screenshots[0].jpeg: "+tt.want):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// hostileShots are screenshots of MaxScreenshotBytes that the check takes,
// each as costly to walk as its kind can be made: the largest image's
// blocks; entropy-coded data of nothing but stuffed 0xFF bytes (FF00, a
// step of the walk every two bytes), restart markers alike; the most
// segments (empty comments, Huffman tables), then stuffed bytes.
func hostileShots() map[string][]byte {
	fill := func(parts [][]byte, unit []byte) []byte {
		room := MaxScreenshotBytes - len(join(parts))
		parts[pData] = append(parts[pData], bytes.Repeat(unit, room/len(unit))...)
		return join(parts)
	}
	small := func() [][]byte { return baselineJPEG(8, 8, 1, 0) }
	segments := func(s []byte) [][]byte {
		p := small()
		p[pSOI] = append(p[pSOI], bytes.Repeat(s, maxSegments-5)...) // 5: DQT, SOF, two DHT, SOS
		return p
	}
	return map[string][]byte{
		"largest image": join(baselineJPEG(1024, 1024, 3, 0)),
		"stuffed bytes": fill(small(), []byte{0xFF, 0}),
		"restarts":      fill(small(), []byte{0xFF, 0xD0}),
		"comments":      fill(segments(segment(0xFE)), []byte{0xFF, 0}),
		"tables":        fill(segments(segment(0xC4, huffTable(1, 0)...)), []byte{0xFF, 0}),
	}
}

// TestHostileShotsAccepted: the benchmark's screenshots are ones a
// results file takes.
func TestHostileShotsAccepted(t *testing.T) {
	t.Parallel()
	for name, b := range hostileShots() {
		if len(b) > MaxScreenshotBytes {
			t.Errorf("%s: %d bytes", name, len(b))
		}
		if err := checkJPEG(b64(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkCheckScreenshot: the check of one screenshot (its base64
// decoded, its markers walked), per kind of hostileShots; MB/s of base64,
// and the process's CPU per check (steadier than the time on a shared
// machine).
func BenchmarkCheckScreenshot(b *testing.B) {
	for name, shot := range hostileShots() {
		s := b64(shot)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			cpu := cpuTime()
			for b.Loop() {
				if err := checkJPEG(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e3, "cpu-µs/op")
		})
	}
}
