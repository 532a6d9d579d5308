package scrape

import "fmt"

// Speculative decoding: vLLM counts the drafts its proposer made, their
// tokens and the tokens the target model accepted (names.go cites the
// source read); their deltas over a run give its acceptance rate
// (accepted ÷ draft tokens) and its mean acceptance length (1 + accepted
// ÷ drafts, the bonus token counted, as vLLM logs it). SGLang keeps no
// such counters: its gauges of the acceptance rate and length of the
// batch it last logged are sampled as the other gauges are (the mean of
// their series, the median over the run), and said to be batches'.

// Spec is a server's speculative-decoding counters over a run: the page
// after the run minus the page before, and their families (DraftsFamily
// "" when the page has no count of drafts).
type Spec struct {
	DraftsFamily, DraftTokensFamily, AcceptedFamily string
	Drafts, DraftTokens, Accepted                   float64
}

// spec is the speculative-decoding counters' deltas between the page
// before and after; nil when the page lacks them, or they went back or
// disagree (said in a warning).
func (r *Run) spec(after Page) *Spec {
	tf, t, ok1 := r.delta(after, r.s.Names.SpecDraftTokens)
	af, a, ok2 := r.delta(after, r.s.Names.SpecAccepted)
	if !ok1 || !ok2 {
		return nil
	}
	s := &Spec{DraftTokensFamily: tf, AcceptedFamily: af, DraftTokens: t, Accepted: a}
	if df, d, ok := r.delta(after, r.s.Names.SpecDrafts); ok {
		s.DraftsFamily, s.Drafts = df, d
	}
	if s.DraftTokens < 0 || s.Accepted < 0 || s.Drafts < 0 || s.Accepted > s.DraftTokens || s.Drafts > s.DraftTokens {
		r.warn(fmt.Sprintf("%s and %s went back or disagree during the run (the server restarted?): no speculative-decoding acceptance", tf, af))
		return nil
	}
	return s
}
