package probe

import (
	"bytes"
	"io"
	"testing"
)

// FuzzSSE feeds arbitrary bytes to the SSE decoder: it must never panic,
// loop forever or return an event larger than its input.
func FuzzSSE(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[]}\n\n"))
	f.Add([]byte(": keep-alive\r\n\r\ndata:[DONE]\r\n\r\n"))
	f.Add([]byte("event: error\ndata: a\ndata: b\n\nid: 1\nretry: 5\n\n"))
	f.Add([]byte("data: partial"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := newSSEFramer(bytes.NewReader(in))
		for i := 0; ; i++ {
			ev, err := d.Next()
			if err != nil {
				if err != io.EOF && err != errMidLine {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(ev.Data) > len(in) {
				t.Fatalf("event data (%d bytes) longer than the input (%d)", len(ev.Data), len(in))
			}
			if i > len(in) {
				t.Fatalf("more events than input bytes")
			}
		}
	})
}

func TestSSEDecoder(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  error
	}{
		{"lf", "data: a\n\ndata: b\n\n", []string{"a", "b"}, io.EOF},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}, io.EOF},
		{"no space", "data:a\n\n", []string{"a"}, io.EOF},
		{"only one space stripped", "data:  a\n\n", []string{" a"}, io.EOF},
		{"multi-line", "data: {\"a\":1,\ndata: \"b\":2}\n\n", []string{"{\"a\":1,\n\"b\":2}"}, io.EOF},
		{"comments skipped", ": ping\n: ping\ndata: x\n\n", []string{"x"}, io.EOF},
		{"pending event at EOF", "data: last\n", []string{"last"}, io.EOF},
		{"partial line", "data: a\n\ndata: tr", []string{"a"}, errMidLine},
		{"other fields ignored", "id: 3\nretry: 10\nevent: x\n\ndata: y\n\n", []string{"y"}, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newSSEFramer(bytes.NewReader([]byte(tt.in)))
			var got []string
			var err error
			for {
				var ev frame
				ev, err = d.Next()
				if err != nil {
					break
				}
				got = append(got, string(ev.Data))
			}
			if err != tt.err {
				t.Errorf("err = %v, want %v", err, tt.err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("events = %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("event %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}
