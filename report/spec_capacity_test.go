package report

import (
	"math"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// withSpec gives every level of s with a GPU page the engine's
// speculative-decoding counters: accepted of 900 draft tokens in 225
// drafts of 4 tokens.
func withSpec(s CapacitySide, accepted float64) CapacitySide {
	for i := range s.Levels {
		if m := s.Levels[i].Server; m != nil {
			m.Spec = &results.MetricSpec{DraftTokensFamily: "vllm:spec_decode_num_draft_tokens_total", AcceptedFamily: "vllm:spec_decode_num_accepted_tokens_total",
				DraftsFamily: "vllm:spec_decode_num_drafts_total", Drafts: 225, DraftTokens: 900, Accepted: accepted}
		}
	}
	return s
}

// TestCapacitySpecDecoding: an ab of capacity searches says each side's
// speculative acceptance at its capacity in the terminal, the comment and
// HTML, shown and not tested, as the "compared in ab" asks (a
// draft model or num_speculative_tokens change). Before, a head at 60 %
// and a base at 75 % said it only in the JSON verdict's levels.
func TestCapacitySpecDecoding(t *testing.T) {
	t.Parallel()
	head := withSpec(gpuSide(4, []float64{17, 33, 67, 100, 100}, 0, 0.5), 540)
	base := withSpec(gpuSide(8, []float64{13, 25, 50, 100, 100}, 0, 0.5), 675)
	c := Capacity{Endpoint: "e", Scenario: "s", Status: vocab.Regression, SameSLO: true, DeltaPct: -50, Head: head, Base: &base}
	want := "spec. acceptance 60%, length 3.4 at capacity (4 users); base acceptance 75%, length 4 at capacity (8 users), not tested"
	if got := c.specDetails(); got != want {
		t.Errorf("specDetails %q, want %q", got, want)
	}
	r := &Report{Capacity: []Capacity{c}}
	var html strings.Builder
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	Text(&text, r, false)
	for name, out := range map[string]string{"markdown": Markdown(r, MarkdownOptions{}), "html": html.String(), "text": text.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: no spec. decoding line %q", name, want)
		}
	}
	alone := Capacity{Head: gpuSide(8, []float64{12, 25, 50, 97, 99}, 0, 0.5)}
	if got := alone.specDetails(); got != "" {
		t.Errorf("without counters: %q", got)
	}
	if got := (Capacity{Head: withSpec(gpuSide(math.NaN(), []float64{12, 25}, 0, 0.5), 450)}).specDetails(); got != "spec. acceptance 50%, length 3 at 1 user, not tested" {
		t.Errorf("no capacity: %q", got)
	}
}
