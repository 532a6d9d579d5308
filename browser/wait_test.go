package browser

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestSettle: when a turn ends, and how, from what the driver knows.
func TestSettle(t *testing.T) {
	t.Parallel()
	r := rules{output: "[data-role=assistant]", submit: "button", quiet: 500, click: 5000}
	done := r
	done.done = "[data-status=ready]"
	streaming := &Wire{URL: "http://p/api/chat", Status: 200, End: -1}
	ended := &Wire{URL: "http://p/api/chat", Status: 200, End: 1000}
	tests := []struct {
		name string
		pr   progress
		r    rules
		end  bool
		kind vocab.Failure
		msg  string
	}{
		{"no click yet", progress{Now: 4000, T0: -1}, r, false, "", ""},
		{"no click seen", progress{Now: 5001, T0: -1}, r, true, vocab.Page, `the page saw no click on submit "button" within 5s`},
		{"streaming", progress{Now: 900, T0: 10, Chars: 40, Changed: 890, Stream: streaming}, r, false, "", ""},
		{"ended, not quiet", progress{Now: 1400, T0: 10, Chars: 40, Changed: 1100, Stream: ended}, r, false, "", ""},
		{"ended and quiet", progress{Now: 1600, T0: 10, Chars: 40, Matched: true, Changed: 1100, Stream: ended}, r, true, "", ""},
		{"quiet from the stream's end", progress{Now: 1499, T0: 10, Chars: 40, Changed: 700, Stream: ended}, r, false, "", ""},
		{"ended, nothing shown", progress{Now: 1600, T0: 10, Matched: true, Changed: -1, Stream: ended}, r, true, vocab.NoOutput,
			`the page's answer stream ended and output "[data-role=assistant]" showed no text`},
		{"ended, no output", progress{Now: 1600, T0: 10, Changed: -1, Stream: ended}, r, true, vocab.Page,
			`the page's answer stream ended and output "[data-role=assistant]" matched nothing`},
		{"http error", progress{Now: 1001, T0: 10, Chars: 9, Stream: &Wire{URL: "http://p/api/chat?k=secret", Status: 503, End: 1000}}, r, true,
			vocab.HTTPStatus, "the page's answer stream http://p/api/chat answered HTTP 503"},
		{"stream failed", progress{Now: 500, T0: 10, Stream: &Wire{URL: "http://p/api/chat", End: 400, Failed: "net::ERR_EMPTY_RESPONSE"}}, r, true,
			vocab.Connection, "the page's answer stream http://p/api/chat failed: net::ERR_EMPTY_RESPONSE"},
		{"no stream, quiet", progress{Now: 1600, T0: 10, Chars: 3, Changed: 1000}, r, true, "", ""},
		{"no stream, nothing", progress{Now: 9000, T0: 10, Changed: -1}, r, false, "", ""},
		{"done before any text", progress{Now: 900, T0: 10, Done: true, DoneLeft: true, Stream: streaming}, done, false, "", ""},
		{"done still showing from before", progress{Now: 900, T0: 10, Chars: 5, Done: true, Stream: streaming}, done, false, "", ""},
		{"done again", progress{Now: 900, T0: 10, Chars: 5, Done: true, DoneLeft: true, Stream: streaming}, done, true, "", ""},
		{"done, stream ended", progress{Now: 1001, T0: 10, Chars: 5, Done: true, Stream: ended}, done, true, "", ""},
		{"done waits past quiet", progress{Now: 9000, T0: 10, Chars: 5, Changed: 1000, Stream: ended}, done, false, "", ""},
	}
	for _, tt := range tests {
		end, f := settle(tt.pr, tt.r)
		var kind vocab.Failure
		var msg string
		if f != nil {
			kind, msg = f.kind, f.msg
		}
		if end != tt.end || kind != tt.kind || msg != tt.msg {
			t.Errorf("%s: end %v, %q %q; want %v, %q %q", tt.name, end, kind, msg, tt.end, tt.kind, tt.msg)
		}
		if strings.Contains(msg, "secret") {
			t.Errorf("%s: the message shows the URL's query: %s", tt.name, msg)
		}
	}
}
