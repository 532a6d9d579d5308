package didyoumean

import "testing"

func TestSuggest(t *testing.T) {
	t.Parallel()
	keys := []string{"requests", "rate", "warmup", "max_tokens"}
	for in, want := range map[string]string{"request": "requests", "Rate": "rate", "warmpu": "warmup", "max-tokens": "max_tokens", "zzz": "", "r": ""} {
		if got := Suggest(in, keys); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
	// Candidates keep their case (scenario names), and are matched without it.
	if got := Suggest("chat-shrt", []string{"Chat-Short", "agent"}); got != "Chat-Short" {
		t.Errorf("Suggest(chat-shrt) = %q, want Chat-Short", got)
	}
	for in, want := range map[string]string{"rn": "run", "mdoe": "mode", "x": "", "o": "o"} {
		if got := Suggest(in, []string{"run", "ab", "mode", "o"}); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tt := range []struct {
		a, b string
		want int
	}{{"mode", "mdoe", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ca", "abc", 3}, {"same", "same", 0}} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
