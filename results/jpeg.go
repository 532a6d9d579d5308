package results

import (
	"errors"
	"fmt"
)

// A screenshot's JPEG is checked by its markers and never decoded: a
// decoder's cost has no bound in the file's size (Go's image/jpeg spends
// seconds on a progressive JPEG of 96 KiB whose thousands of scans each
// cover the whole image in two bytes), while this walk costs one pass over
// the bytes. It takes what latgate writes (Chromium's screenshots, Go's
// image/jpeg encoder): a baseline or extended sequential Huffman JPEG
// (SOF0 or SOF1) of 8-bit samples, gray or colour, whose one scan covers
// every component, then its end (EOI) and nothing after it. A browser
// decodes such a file in one pass over its pixels.

// JPEG markers (ITU T.81, table B.1).
const (
	mSOF0 = 0xC0 // baseline
	mSOF1 = 0xC1 // extended sequential, Huffman
	mDHT  = 0xC4
	mRST0 = 0xD0
	mRST7 = 0xD7
	mSOI  = 0xD8
	mEOI  = 0xD9
	mSOS  = 0xDA
	mDQT  = 0xDB
	mDRI  = 0xDD
	mAPP0 = 0xE0
	mAPPF = 0xEF
	mCOM  = 0xFE
)

// frameKinds names the frames a screenshot cannot be, for a message.
var frameKinds = map[byte]string{
	0xC2: "a progressive", 0xC3: "a lossless", 0xC5: "a hierarchical", 0xC6: "a hierarchical progressive",
	0xC7: "a hierarchical lossless", 0xC9: "an arithmetic-coded", 0xCA: "an arithmetic-coded progressive",
	0xCB: "an arithmetic-coded lossless", 0xCD: "an arithmetic-coded hierarchical",
	0xCE: "an arithmetic-coded hierarchical progressive", 0xCF: "an arithmetic-coded hierarchical lossless",
}

// maxSegments bounds the segments up to a screenshot's scan, its own
// included (Chromium writes 10: JFIF, an ICC profile, two quantization
// tables, the frame, four Huffman tables, the scan; Go's image/jpeg 4), so
// that walking them costs little more than its bytes.
const maxSegments = 64

// jpegFrame is what a screenshot's frame header (SOF) says.
type jpegFrame struct {
	w, h  int
	comps []jpegComp
}

type jpegComp struct{ id, tq byte }

// jpegTables are the tables defined so far: quantization, DC and AC
// Huffman, by their number (0 to 3).
type jpegTables struct{ q, dc, ac [4]bool }

// checkJPEGLayout walks a JPEG's segments: its start (SOI), its tables
// and one frame header, its one scan, its end (EOI).
func checkJPEGLayout(b []byte) error {
	if len(b) < 2 || b[0] != 0xFF || b[1] != mSOI {
		return errors.New("not a JPEG image (no SOI marker at its start): latgate's screenshots are JPEGs")
	}
	var (
		frame  *jpegFrame
		tables jpegTables
	)
	for i, k := 2, 0; ; k++ {
		if k == maxSegments {
			return fmt.Errorf("over %d segments up to its scan: latgate's screenshots have about ten", maxSegments)
		}
		if i+4 > len(b) {
			return fmt.Errorf("not a whole JPEG image (cut at byte %d, before its scan)", len(b))
		}
		if b[i] != 0xFF {
			return fmt.Errorf("not a whole JPEG image (byte %d is 0x%02X where a marker belongs)", i, b[i])
		}
		m, n := b[i+1], int(b[i+2])<<8|int(b[i+3])
		if n < 2 || i+2+n > len(b) {
			return fmt.Errorf("not a whole JPEG image (its segment FF%02X at byte %d is %d bytes long, %d remain)", m, i, n, len(b)-i-2)
		}
		p := b[i+4 : i+2+n]
		var err error
		switch {
		case (m == mSOF0 || m == mSOF1) && frame != nil:
			err = errors.New("a second frame header (SOF): a screenshot is one image")
		case m == mSOF0 || m == mSOF1:
			frame, err = parseFrame(p)
		case m == mDQT:
			err = tables.quantization(p)
		case m == mDHT:
			err = tables.huffman(p)
		case m == mDRI && n != 4:
			err = fmt.Errorf("its restart interval (DRI) is %d bytes long, not 4", n)
		case m == mDRI, m >= mAPP0 && m <= mAPPF, m == mCOM:
		case m == mSOS && frame == nil:
			err = errors.New("a scan (SOS) before its frame header (SOF)")
		case m == mSOS:
			if err = frame.checkScan(p, &tables); err == nil {
				return checkScanData(b, i+2+n)
			}
		case frameKinds[m] != "":
			err = fmt.Errorf("%s JPEG (SOF%d): a screenshot is a baseline JPEG (SOF0 or SOF1) of one scan, as latgate writes them", frameKinds[m], m-mSOF0)
		default:
			err = fmt.Errorf("marker FF%02X at byte %d: not one of a baseline JPEG's", m, i)
		}
		if err != nil {
			return err
		}
		i += 2 + n
	}
}

// parseFrame reads a frame header: 8-bit samples, 1 to MaxScreenshotSide
// pixels a side (the height given here, not by a DNL after the scan), one
// component (gray) or three (colour), each sampled 1 to 4 times a side
// and an MCU of at most 10 blocks (T.81 B.2.2).
func parseFrame(p []byte) (*jpegFrame, error) {
	if len(p) < 6 || len(p) != 6+3*int(p[5]) {
		return nil, fmt.Errorf("its frame header (SOF) is %d bytes long: not one of its components", len(p)+2)
	}
	f := &jpegFrame{h: int(p[1])<<8 | int(p[2]), w: int(p[3])<<8 | int(p[4])}
	if f.w < 1 || f.h < 1 || f.w > MaxScreenshotSide || f.h > MaxScreenshotSide {
		return nil, fmt.Errorf("a JPEG of %d×%d pixels: a screenshot is at most %d a side", f.w, f.h, MaxScreenshotSide)
	}
	if p[0] != 8 {
		return nil, fmt.Errorf("a JPEG of %d-bit samples: a screenshot's are 8-bit", p[0])
	}
	if nf := p[5]; nf != 1 && nf != 3 {
		return nil, fmt.Errorf("a JPEG of %d components: a screenshot is gray (1) or colour (3)", nf)
	}
	blocks := 0
	for c := p[6:]; len(c) > 0; c = c[3:] {
		h, v := int(c[1]>>4), int(c[1]&15)
		switch {
		case h < 1 || h > 4 || v < 1 || v > 4:
			return nil, fmt.Errorf("component %d is sampled %d×%d: from 1 to 4 a side", c[0], h, v)
		case c[2] > 3:
			return nil, fmt.Errorf("component %d uses quantization table %d: there are 4 (0 to 3)", c[0], c[2])
		}
		for _, o := range f.comps {
			if o.id == c[0] {
				return nil, fmt.Errorf("component %d appears twice in its frame header", c[0])
			}
		}
		blocks += h * v
		f.comps = append(f.comps, jpegComp{id: c[0], tq: c[2]})
	}
	if len(f.comps) > 1 && blocks > 10 {
		return nil, fmt.Errorf("an MCU of %d blocks: at most 10", blocks)
	}
	return f, nil
}

// quantization records a DQT segment's tables.
func (t *jpegTables) quantization(p []byte) error {
	for len(p) > 0 {
		pq, tq := p[0]>>4, p[0]&15
		n := 1 + 64*(int(pq)+1)
		if pq > 1 || tq > 3 || len(p) < n {
			return fmt.Errorf("a quantization table (DQT) of precision %d, number %d, in %d bytes: not one", pq, tq, len(p))
		}
		t.q[tq] = true
		p = p[n:]
	}
	return nil
}

// huffman records a DHT segment's tables.
func (t *jpegTables) huffman(p []byte) error {
	for len(p) > 0 {
		if len(p) < 17 {
			return fmt.Errorf("a Huffman table (DHT) in %d bytes: not one", len(p))
		}
		tc, th, codes := p[0]>>4, p[0]&15, 0
		for _, c := range p[1:17] {
			codes += int(c)
		}
		if tc > 1 || th > 3 || codes < 1 || codes > 256 || len(p) < 17+codes {
			return fmt.Errorf("a Huffman table (DHT) of class %d, number %d, %d codes in %d bytes: not one", tc, th, codes, len(p))
		}
		if tc == 0 {
			t.dc[th] = true
		} else {
			t.ac[th] = true
		}
		p = p[17+codes:]
	}
	return nil
}

// checkScan checks a scan header (SOS): the frame's components in its
// order, their tables defined, the whole spectrum at full precision (a
// sequential scan: Ss 0, Se 63, Ah and Al 0).
func (f *jpegFrame) checkScan(p []byte, t *jpegTables) error {
	if len(p) < 1 || len(p) != 1+2*int(p[0])+3 {
		return fmt.Errorf("its scan header (SOS) is %d bytes long: not one of its components", len(p)+2)
	}
	if int(p[0]) != len(f.comps) {
		return fmt.Errorf("its scan covers %d of its %d components: a screenshot's one scan covers them all", p[0], len(f.comps))
	}
	for k, c := range f.comps {
		id, td, ta := p[1+2*k], p[2+2*k]>>4, p[2+2*k]&15
		switch {
		case id != c.id:
			return fmt.Errorf("its scan's component %d is %d, the frame's is %d: one scan covers them in order", k, id, c.id)
		case !t.q[c.tq]:
			return fmt.Errorf("component %d uses quantization table %d, which no DQT before its scan defines", c.id, c.tq)
		case td > 3 || ta > 3 || !t.dc[td] || !t.ac[ta]:
			return fmt.Errorf("component %d uses Huffman tables DC%d and AC%d, which no DHT before its scan defines", c.id, td, ta)
		}
	}
	if s := p[len(p)-3:]; s[0] != 0 || s[1] != 63 || s[2] != 0 {
		return fmt.Errorf("its scan holds coefficients %d to %d, approximation 0x%02X: a sequential scan holds 0 to 63, 0x00", s[0], s[1], s[2])
	}
	return nil
}

// checkScanData walks the scan's entropy-coded data from i: a 0xFF in it
// is stuffed (FF00) or a restart marker (RST0–7); the first other marker
// must be the end (EOI), the file's last two bytes. (A loop of bytes:
// bytes.IndexByte costs more than it saves on data dense with 0xFF.)
func checkScanData(b []byte, i int) error {
	for ; i+1 < len(b); i++ {
		if b[i] != 0xFF {
			continue
		}
		switch m := b[i+1]; {
		case m == 0 || m >= mRST0 && m <= mRST7:
			i++
		case m == mEOI && i+2 < len(b):
			return fmt.Errorf("not a whole JPEG image (%d bytes after its end, EOI)", len(b)-i-2)
		case m == mEOI:
			return nil
		case m == mSOS:
			return fmt.Errorf("a second scan (SOS at byte %d): a screenshot is a baseline JPEG of one scan", i)
		default:
			return fmt.Errorf("marker FF%02X at byte %d, after its scan: a screenshot ends at its scan's end (EOI)", m, i)
		}
	}
	return errors.New("not a whole JPEG image (no EOI marker at its end)")
}
