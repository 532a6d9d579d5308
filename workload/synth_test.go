package workload

import (
	"strings"
	"testing"
)

// TestLexiconWords: every word is five lowercase letters and appears
// once, so a prompt of n words is 6n − 1 bytes (a byte-level tokenizer's
// count is linear in the words) and picks are uniform.
func TestLexiconWords(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range lexicon {
		if len(w) != 5 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || seen[w] {
			t.Errorf("lexicon word %q: want five lowercase letters, once", w)
		}
		seen[w] = true
	}
	if len(lexicon) < 256 {
		t.Errorf("%d words, want at least 256", len(lexicon))
	}
}

// TestFit: two prompts' counts give the line through them; counts that
// do not grow with the words, or grow by fewer than MinPerWord or more
// than MaxPerWord tokens a word, are refused (a hostile server's 1 and 2
// tokens for 16 and 160 words would make a 100,000-token entry a prompt
// of 14.4 million words).
func TestFit(t *testing.T) {
	tk, ok := Fit(64, 64*6+3, 1024, 1024*6+3)
	if !ok || tk.PerWord != 6 || tk.Overhead != 3 {
		t.Errorf("fit %+v %v, want per word 6, overhead 3", tk, ok)
	}
	for _, c := range [][4]int{{64, 0, 1024, 10}, {64, 70, 1024, 70}, {64, 70, 32, 80}, {16, 1, 160, 2}, {16, 100, 160, 2000}} {
		if _, ok := Fit(c[0], c[1], c[2], c[3]); ok {
			t.Errorf("Fit%v accepted", c)
		}
	}
	if n := (Tokens{PerWord: 6, Overhead: 3}).Words(603); n != 100 {
		t.Errorf("words for 603 tokens at 6 a word after 3: %d, want 100", n)
	}
}

// TestPromptSharesBlocks: entries with equal leading hash_ids have equal
// leading text, block by block, and differ after; the length is the
// entry's in the endpoint's tokens; the same salt gives the same text.
func TestPromptSharesBlocks(t *testing.T) {
	s := Synth{Tokens: Tokens{PerWord: 1, Overhead: 4}, BlockTokens: 16, Salt: 7}
	a := strings.Fields(s.Prompt(Entry{Line: 1, Input: 4 + 60, Hashes: []uint64{1, 2, 3, 4}}, nil))
	b := strings.Fields(s.Prompt(Entry{Line: 2, Input: 4 + 64, Hashes: []uint64{1, 2, 9, 10}}, nil))
	c := strings.Fields(s.Prompt(Entry{Line: 3, Input: 4 + 40}, nil))
	if len(a) != 60 || len(b) != 64 || len(c) != 40 {
		t.Fatalf("words %d, %d, %d; want 60, 64, 40", len(a), len(b), len(c))
	}
	if strings.Join(a[:32], " ") != strings.Join(b[:32], " ") {
		t.Error("two shared blocks: the first 32 words differ")
	}
	if strings.Join(a[32:48], " ") == strings.Join(b[32:48], " ") {
		t.Error("third blocks 3 and 9 give the same text")
	}
	if strings.Join(a[:16], " ") == strings.Join(c[:16], " ") {
		t.Error("an entry without hash_ids starts as block 1 does")
	}
	again := strings.Fields(s.Prompt(Entry{Line: 1, Input: 4 + 60, Hashes: []uint64{1, 2, 3, 4}}, nil))
	if strings.Join(a, " ") != strings.Join(again, " ") {
		t.Error("the same entry gave two texts")
	}
	other := Synth{Tokens: s.Tokens, BlockTokens: 16, Salt: 8}
	if strings.Join(a, " ") == other.Prompt(Entry{Line: 1, Input: 4 + 60, Hashes: []uint64{1, 2, 3, 4}}, nil) {
		t.Error("another salt gave the same text")
	}
}

// TestPromptTurnsExtend: a later turn of a session without hash_ids
// starts with the turn before it.
func TestPromptTurnsExtend(t *testing.T) {
	s := Synth{Tokens: Assumed, Salt: 3}
	t1, t2, t3 := Entry{Line: 5, Input: 30, Session: "s"}, Entry{Line: 9, Input: 80, Session: "s"}, Entry{Line: 12, Input: 200, Session: "s"}
	one := s.Prompt(t1, nil)
	two := s.Prompt(t2, []Entry{t1})
	three := s.Prompt(t3, []Entry{t1, t2})
	if !strings.HasPrefix(two, one+" ") || len(strings.Fields(two)) != 80 {
		t.Errorf("turn 2 (%d words) does not start with turn 1", len(strings.Fields(two)))
	}
	if !strings.HasPrefix(three, two+" ") || len(strings.Fields(three)) != 200 {
		t.Errorf("turn 3 (%d words) does not start with turn 2", len(strings.Fields(three)))
	}
}

// TestCalibrationPromptsShareNothing: the two prompts a token count is
// learned from start differently, so that no prefix cache counts the
// longer one short.
func TestCalibrationPromptsShareNothing(t *testing.T) {
	short, long := strings.Fields(Calibration(16)), strings.Fields(Calibration(160))
	if len(short) != 16 || len(long) != 160 || short[0] == long[0] {
		t.Errorf("calibration prompts of %d and %d words, first words %q and %q", len(short), len(long), short[0], long[0])
	}
}
