package probe

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLongLinesAcrossReads: lines longer than the framer's buffer, and
// line ends split between two reads, come out whole, through every line
// framer, however the bytes arrive.
func TestLongLinesAcrossReads(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return `{"delta":"` + strings.Repeat("é", n/2) + `"}` }
	lines := []string{long(lineBuffer - 20), long(lineBuffer), long(3*lineBuffer + 7), `{"delta":"x"}`, long(40 << 10)}
	var sse, nd bytes.Buffer
	for _, l := range lines {
		sse.WriteString("data: " + l + "\r\n\r\n")
		nd.WriteString(l + "\r\n")
	}
	for _, slow := range []bool{false, true} {
		for _, c := range []struct {
			f  framing
			in []byte
		}{{framingSSE, sse.Bytes()}, {framingNDJSON, nd.Bytes()}} {
			var r io.Reader = bytes.NewReader(c.in)
			if slow {
				r = iotest.OneByteReader(r)
			}
			fr := newFramer(c.f, r)
			for i, want := range lines {
				got, err := fr.Next()
				if err != nil || string(got.Data) != want {
					t.Fatalf("%s (one byte a read: %v): frame %d = %d bytes, %v; want %d bytes", c.f, slow, i, len(got.Data), err, len(want))
				}
			}
			if _, err := fr.Next(); err != io.EOF {
				t.Errorf("%s: after the last frame: %v, want EOF", c.f, err)
			}
		}
	}
}
