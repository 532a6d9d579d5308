package workload

import (
	"math"
	"strings"
)

// lexicon is the words synthesized prompts are made of: common English
// words of five letters, each one token in the BPE vocabularies of
// today's large models (cl100k_base and o200k_base: docs/formats.md says
// how it was checked), so a prompt of n words is about n tokens there,
// and exactly 6n − 1 bytes for a byte-level tokenizer. An endpoint's
// own count is learned from its prompt_tokens (Tokens).
var lexicon = strings.Fields(`about above after again agree ahead alarm album alert alike alive allow alone along
alter among angle angry apart apple apply arena argue arise array aside asset audio audit avoid award aware badly
basic basis beach began begin being below bench birth black blame blind block blood board boost bound brain brand
bread break brick brief bring broad brown build built buyer cable carry catch cause chain chair chart chase cheap
check chest chief child china claim class clean clear clock close coach coast could count court cover craft crash
cream crime cross crowd crown curve cycle daily dance dated dealt death debut delay depth doing doubt dozen draft
drama drawn dream dress drink drive drove dying eager early earth eight elite empty enemy enjoy enter entry equal
error event every exact exist extra faith false fault fiber field fifth fifty fight final first flash fleet floor
fluid focus force forth forty forum found frame frank fresh front fruit fully funny giant given glass globe going
grace grade grand grant grass great green gross group grown guard guess guest guide happy heart heavy hence horse
hotel house human ideal image index inner input issue joint judge known label large laser later laugh layer learn
least leave legal level light limit local logic loose lower lucky lunch major maker march match maybe mayor meant
media metal might minor model money month moral motor mount mouse mouth movie music needs never newly night noise
north noted novel nurse occur ocean offer often order other ought owner paint panel paper party peace phase phone
photo piece pilot pitch place plain plane plant plate point pound power press price pride prime print prior prize
proof proud prove queen quick quiet quite radio raise range rapid ratio reach ready refer right river rough round
route royal rural scale scene scope score sense serve seven shall shape share sharp sheet shelf shell shift shirt
shock shoot short sight since sixth sixty skill sleep slide small smart smile smoke solid solve sound south space
spare speak speed spend spent split sport staff stage stand start state steam steel stick still stock stone stood
store storm story strip stuck study stuff style sugar suite super sweet table taken taste teach teeth thank theme
there these thick thing think third those three threw throw tight times tired title today topic total touch tough
tower track trade train treat trend trial tried truck truly trust truth twice under union unity until upper upset
urban usage usual valid value video virus visit vital voice waste watch water wheel where which while white whole
whose woman women world worry would wound write wrong wrote young youth`)

// Tokens counts a synthesized prompt in an endpoint model's tokens:
// Overhead + PerWord × its words (Overhead: what the API's chat template
// adds to every prompt).
type Tokens struct {
	PerWord, Overhead float64
}

// Assumed is the count when the server reports no prompt_tokens: a word
// a token, no template.
var Assumed = Tokens{PerWord: 1}

// Fit learns Tokens from two prompts of w1 < w2 words that the server
// counted as p1 and p2 tokens. It reports false when the counts cannot be
// a count of those prompts (missing, not growing with the words, or
// outside [MinPerWord, MaxPerWord] tokens a word).
func Fit(w1, p1, w2, p2 int) (Tokens, bool) {
	if w1 <= 0 || w2 <= w1 || p1 <= 0 || p2 <= p1 {
		return Tokens{}, false
	}
	per := float64(p2-p1) / float64(w2-w1)
	if !(per >= MinPerWord && per <= MaxPerWord) {
		return Tokens{}, false
	}
	return Tokens{PerWord: per, Overhead: float64(p1) - per*float64(w1)}, true
}

// MinPerWord and MaxPerWord bound a count Fit learns: a word of the
// lexicon (five letters and a space) is one token in a BPE vocabulary, six
// in a byte-level one. A server's count below MinPerWord would make each
// prompt up to 1/MinPerWord words a token of the trace (a server that
// says 1 and 2 tokens for the calibration prompts: 144 words a token, a
// 100,000-token entry an 86 MB prompt); it is not believed.
const (
	MinPerWord = 0.25
	MaxPerWord = 8
)

// Words is how many lexicon words make a prompt of n tokens (at least 1).
func (t Tokens) Words(n int) int {
	if t.PerWord <= 0 {
		t = Assumed
	}
	return max(int(math.Round((float64(n)-t.Overhead)/t.PerWord)), 1)
}

// Synth makes the prompts of a draw's entries.
type Synth struct {
	Tokens Tokens
	// BlockTokens is the trace's hash_ids block size (tokens).
	BlockTokens int
	// Salt makes one trace's text differ from another's (the draw's seed);
	// the same salt gives the same text.
	Salt uint64
}

// Prompt is entry e's text: Words(e.Input) words of the lexicon; its
// prefix blocks (e.Hashes) each BlockTokens tokens of words drawn from the
// block's hash alone, so that equal hash_ids give equal text; then words
// of its own. A later turn of a session without hashes starts with the
// text of the turns before it (earlier, in order): each turn adds its own
// words up to its length, so a turn's text begins with the one before.
func (s Synth) Prompt(e Entry, earlier []Entry) string {
	n := s.Tokens.Words(e.Input)
	var b strings.Builder
	b.Grow(6 * n)
	words := 0
	put := func(salt, key uint64, j int) {
		if words > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lexicon[pick(salt, key, uint64(j))%uint64(len(lexicon))])
		words++
	}
	if len(e.Hashes) > 0 {
		per := s.blockWords()
		for _, h := range e.Hashes {
			for j := 0; j < per && words < n; j++ {
				put(s.Salt, h, j)
			}
		}
	} else {
		for _, t := range earlier {
			upto := min(s.Tokens.Words(t.Input), n)
			for j := 0; words < upto; j++ {
				put(^s.Salt, uint64(t.Line), j)
			}
		}
	}
	for j := 0; words < n; j++ { // the entry's own words, apart from any block's
		put(^s.Salt, uint64(e.Line), j)
	}
	return b.String()
}

// blockWords is how many words make a prefix block of BlockTokens tokens.
func (s Synth) blockWords() int {
	t := s.Tokens
	if t.PerWord <= 0 {
		t = Assumed
	}
	return max(int(math.Round(float64(s.BlockTokens)/t.PerWord)), 1)
}

// Calibration is a prompt of n words that no trace's text shares, nor
// one of another length (a prefix cache would count it less): what the
// endpoint's token count is learned from.
func Calibration(n int) string {
	return Synth{Tokens: Assumed, Salt: 0xca11b}.Prompt(Entry{Line: n, Input: n}, nil)
}

// pick is SplitMix64 of (salt, key, j): a word's pick.
func pick(salt, key, j uint64) uint64 {
	z := salt ^ key*0x9e3779b97f4a7c15 ^ j*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
