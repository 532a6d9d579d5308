package browser

import (
	"strings"
	"testing"
)

// TestScanners: which chunks carry answer text, per Content-Type, with
// lines split across chunks.
func TestScanners(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ctype string
		chunks      []string
		want        []bool
	}{
		{"ai sdk ui message stream", "text/event-stream", []string{
			`data: {"type":"start","messageId":"m"}` + "\n\n" + `data: {"type":"start-step"}` + "\n\n",
			`data: {"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{\"a"}` + "\n\n",
			`data: {"type":"text-start","id":"t"}` + "\n\n",
			`data: {"type":"text-delta","id":"t","delta":""}` + "\n\n",
			`data: {"type":"text-de`, `lta","id":"t","delta":"Hi"}` + "\n\n",
			`data: {"type":"finish"}` + "\n\ndata: [DONE]\n\n"},
			[]bool{false, false, false, false, false, true, false}},
		{"openai chat", "text/event-stream; charset=utf-8", []string{
			`data: {"choices":[{"delta":{"role":"assistant"}}]}` + "\n\n",
			`data: {"choices":[{"delta":{"content":"Yes"}}]}` + "\r\n\r\n"},
			[]bool{false, true}},
		{"responses and anthropic", "text/event-stream", []string{
			"event: response.created\ndata: {\"type\":\"response.created\"}\n\n",
			`data: {"type":"response.output_text.delta","delta":"a"}` + "\n",
			`data: {"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"x"}}` + "\n",
			`data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"b"}}` + "\n"},
			[]bool{false, true, false, true}},
		{"plain sse", "text/event-stream", []string{": keep-alive\n\n", "data: hello\n\n"}, []bool{false, true}},
		{"ndjson", "application/x-ndjson", []string{`{"message":{"role":"assistant","content":""}}` + "\n", `{"message":{"content":"Hi"}}` + "\n", `{"done":true}` + "\n"},
			[]bool{false, true, false}},
		{"ai sdk data stream", "text/plain; charset=utf-8", []string{`f:{"messageId":"m"}` + "\n", `0:"Hi"` + "\n", `e:{"finishReason":"stop"}` + "\n"},
			[]bool{false, true, false}},
		{"plain text", "text/plain", []string{"The", " answer", "  "}, []bool{true, true, false}},
		{"json", "application/json", []string{`{"text":"whole"}`}, []bool{true}},
	}
	for _, tt := range tests {
		s := NewScanner(tt.ctype)
		var got []bool
		for _, c := range tt.chunks {
			got = append(got, s.Chunk([]byte(c)))
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d chunks, want %d", tt.name, len(got), len(tt.want))
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: chunk %d %q: text %v, want %v", tt.name, i, tt.chunks[i], got[i], tt.want[i])
			}
		}
	}
}

// TestScannerBounded: a line that never ends is kept to its first
// maxLine bytes, however many chunks it spans.
func TestScannerBounded(t *testing.T) {
	t.Parallel()
	l := &lines{is: sseText}
	big := []byte(strings.Repeat("x", 1<<20))
	for range 8 {
		l.Chunk(big)
	}
	if len(l.part) != maxLine {
		t.Errorf("partial line kept %d bytes, want %d", len(l.part), maxLine)
	}
	if l.Chunk([]byte("\n")) {
		t.Error("a line of x carries no text")
	}
	if len(l.part) != 0 {
		t.Errorf("partial line after its end: %d bytes", len(l.part))
	}
}
