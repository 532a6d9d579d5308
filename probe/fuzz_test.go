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
	t.Parallel()
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

// FuzzDecoders feeds arbitrary frames to every API's decoder: none may
// panic, and an event never claims more output characters than its input.
func FuzzDecoders(f *testing.F) {
	f.Add("", []byte(`{"choices":[{"delta":{"content":"hi"}}]}`))
	f.Add("content_block_delta", []byte(`{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}`))
	f.Add("message_start", []byte(`{"type":"message_start","message":{"usage":{"input_tokens":5}}}`))
	f.Add("", []byte(`{"type":"response.completed","response":{"usage":{"output_tokens":3}}}`))
	f.Add("", []byte(`{"candidates":[{"content":{"parts":[{"text":"a","thought":true}]},"finishReason":"STOP"}]}`))
	f.Add("", []byte(`{"message":{"content":"a"},"done":true,"eval_count":1}`))
	f.Add("error", []byte(`{"error":{"message":"x"}}`))
	f.Add("", []byte(`{"type":"response.output_audio.delta","delta":"AAAA=="}`))
	spec := StreamSpec{Format: "ndjson", Text: "/message/content", Reasoning: "/r/0", Done: "/done", Error: "/error",
		OutputTokens: "/eval_count", InputTokens: "/prompt_eval_count", CachedTokens: "/c~1d"}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		decs := []decoder{&chatDecoder{open: -1}, responsesDecoder{}, &anthropicDecoder{}, &geminiDecoder{}, &customDecoder{spec: spec}, &customDecoder{spec: StreamSpec{Format: "text"}},
			&realtimeDecoder{}, &realtimeDecoder{audio: true}}
		for _, d := range decs {
			e, err := d.decode(frame{Name: name, Data: data})
			if err != nil {
				continue
			}
			if e.content < 0 || e.reasoning < 0 || e.tool < 0 || e.output() > len(data) {
				t.Fatalf("%T: event %+v from %d bytes", d, e, len(data))
			}
		}
	})
}

// FuzzFramers cuts arbitrary bytes into NDJSON lines and text chunks: no
// panic, no endless loop, no frame larger than the input.
func FuzzFramers(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}\r\n"))
	f.Add([]byte("{\"cut"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, fm := range []framing{framingNDJSON, framingText} {
			fr := newFramer(fm, bytes.NewReader(in))
			for i := 0; ; i++ {
				fv, err := fr.Next()
				if err != nil {
					if err != io.EOF && err != errMidLine {
						t.Fatalf("%s: unexpected error %v", fm, err)
					}
					break
				}
				if len(fv.Data) > len(in) || i > len(in) {
					t.Fatalf("%s: frame of %d bytes (#%d) from %d", fm, len(fv.Data), i, len(in))
				}
			}
		}
	})
}
