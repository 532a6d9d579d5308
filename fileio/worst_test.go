package fileio

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// stuffedShot is the costliest screenshot to check that a results file
// takes (results' BenchmarkCheckScreenshot): MaxScreenshotBytes of a
// baseline JPEG, 8×8 gray, whose entropy-coded data is nothing but
// stuffed 0xFF bytes (FF00), a step of the walk every two bytes.
func stuffedShot() []byte {
	seg := func(m byte, p ...byte) []byte { return append([]byte{0xFF, m, 0, byte(len(p) + 2)}, p...) }
	huff := func(tc byte) []byte { return seg(0xC4, append([]byte{tc << 4, 1}, make([]byte, 16)...)...) }
	b := []byte{0xFF, 0xD8}
	b = append(b, seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...)...)
	b = append(b, seg(0xC0, 8, 0, 8, 0, 8, 1, 1, 0x11, 0)...)
	b = append(b, huff(0)...)
	b = append(b, huff(1)...)
	b = append(b, seg(0xDA, 1, 1, 0, 0, 63, 0)...)
	for len(b)+4 <= results.MaxScreenshotBytes {
		b = append(b, 0xFF, 0)
	}
	return append(b, 0xFF, 0xD9)
}

// A shape is a crafted results file: head, then unit again and again
// (each %N its number; sep between two) to fill the size, then tail.
type shape struct{ head, unit, sep, tail string }

const (
	fileHead = `{"schema":"latgate/results/v1","metrics_version":2,"runs":[`
	runHead  = `{"scenario":"s","endpoint":"e","fingerprint_parts":{"api":"browser"},"requests":[`
	okReq    = `{"ok":true,"ttft_ms":1,"total_ms":2}`
	// everyField is a request with each of its keys at its shortest.
	everyField = `{"ok":true,"status":0,"error":"","dns_ms":0,"connect_ms":0,"tls_ms":0,"upgrade_ms":0,"reused":false,"ttfb_ms":0,` +
		`"first_event_ms":0,"ttft_ms":0,"ttfc_ms":0,"total_ms":0,"perceived_ms":0,"tpot_ms":0,"max_stall_ms":0,"itl_ms":[0],` +
		`"output_tokens":0,"prompt_tokens":0,"cached_tokens":0,"reasoning_tokens":0,"tokens_source":"","sent_ms":0,"lag_ms":0,` +
		`"cost_usd":0,"buffered":false,"block":0,"first_tool_call_ms":0,"answer_ms":0,"session_ms":0,"tool_ms":0,"unknown_events":0,` +
		`"stream":{"ttfb_ms":0,"first_text_ms":0,"end_ms":0},"client_ms":0,"client_end_ms":0,"long_frames":0,"max_frame_ms":0,` +
		`"painted_chars":0,"server":{"queue_ms":0,"prefill_ms":0,"decode_ms":0,"processing_ms":0,"gateway_ms":0,"source":""},"outside_ms":0}`
)

// worstShapes are the costliest results files to read that we could
// craft, each read without error unless its name says refused: by what
// fills them, at the density the scan allows (ReadLimit).
func worstShapes(b testing.TB) map[string]shape {
	shot := base64.StdEncoding.EncodeToString(stuffedShot())
	q := results.Request{Screenshots: []results.Screenshot{{At: vocab.FirstPaint, JPEG: shot}, {At: vocab.End, JPEG: shot}, {At: vocab.AtFailure, JPEG: shot}}}
	shots, err := json.Marshal(q)
	if err != nil {
		b.Fatal(err)
	}
	pad := func(n int) string { return `,"x":"` + strings.Repeat("x", n) + `"` }
	points := `[0,0]` + strings.Repeat(`,[0,0]`, results.MaxTimelinePoints-1)
	return map[string]shape{
		// Three of the costliest screenshots a request (96 KiB of JPEG).
		"screenshots": {fileHead + runHead, string(shots), ",", `]}]}`},
		// One request of nothing but gaps of 0, a number every two bytes.
		"gaps":         {fileHead + runHead + `{"ok":true,"ttft_ms":1,"total_ms":2,"itl_ms":[0`, `,0`, ``, `]}]}]}`},
		"gaps-refused": {fileHead + runHead + `{"ok":true,"ttft_ms":1,"total_ms":2,"itl_ms":[0`, `,0`, ``, `,-1]}]}]}`},
		// Requests of every key (21 allocations each), as dense as allowed.
		"every-field": {fileHead + runHead, everyField, ",", `]}]}`},
		// Requests as dense as allowed: 1 KiB once read for 256 bytes.
		"requests": {fileHead + runHead, okReq[:len(okReq)-1] + pad(218) + `}`, ",", `]}]}`},
		// One request of keys latgate does not know.
		"unknown-keys": {fileHead + runHead + `{"ok":true,"ttft_ms":1,"total_ms":2`, `,"x%N":0`, ``, `}]}]}`},
		// Notes of escapes, as dense as allowed.
		"notes": {`{"schema":"latgate/results/v1","metrics_version":2,"notes":[`, `"\u0000\u0000\u0000"`, `,`, `],"runs":[` + runHead + okReq + `]}]}`},
		// Steps of a session, as dense as allowed (576 bytes once read).
		"steps": {fileHead + runHead + `{"ok":false,"steps":[`, `{"turn":0` + pad(130) + `}`, `,`, `]}]}]}`},
		// Runs of one request each, as dense as allowed (33 KiB once read).
		"runs": {fileHead, `{"scenario":"s","endpoint":"e%N","requests":[{}]` + pad(8500) + `}`, `,`, `]}`},
		// Browser requests with their timelines' most points.
		"timeline": {fileHead + runHead, `{"ok":false,"page_timeline":{"painted":` + "[" + points + `],"received":[` + points + `]}` + pad(5000) + `}`, `,`, `]}]}`},
		// Values of an unknown key nested as deep as allowed.
		"nested": {fileHead + runHead + `{"ok":false`, `,"x%N":` + strings.Repeat("[", 59) + strings.Repeat("]", 59), ``, `}]}]}`},
	}
}

// writeShape writes a results file of shape sh, of size bytes at most.
func writeShape(b testing.TB, path string, sh shape, size int) {
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	w.WriteString(sh.head)
	n := len(sh.head) + len(sh.tail)
	for i := 0; ; i++ {
		u := strings.ReplaceAll(sh.unit, "%N", strconv.Itoa(i))
		if i > 0 {
			u = sh.sep + u
		}
		if n+len(u) > size {
			break
		}
		w.WriteString(u)
		n += len(u)
	}
	w.WriteString(sh.tail)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		b.Fatal(err)
	}
}

// nothing is a Folder that keeps nothing.
type nothing struct{}

func (nothing) Add(*results.Request) {}
