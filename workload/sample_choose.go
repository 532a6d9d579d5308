package workload

import (
	"cmp"
	"fmt"
	"io"
	"slices"
)

// choose takes, bucket by bucket, units (entries without a session, and
// whole sessions) in key order until the bucket's share is reached: the
// last one taken when that lands nearer the share than stopping short.
func (p *pass1) choose() ([]unit, map[uint64]int) {
	type sess struct {
		mixed, key uint64
		turns      int
	}
	var bySess [buckets][]sess
	var reqs [buckets]int
	for b := range reqs {
		reqs[b] = p.singles[b]
	}
	for k, s := range p.sessions {
		b := bucketOf(s.input)
		t := min(s.turns, p.n)
		reqs[b] += t
		bySess[b] = append(bySess[b], sess{s.key, k, t})
	}
	alloc := p.share(reqs)
	var singles []unit
	chosen := map[uint64]int{}
	for b := range buckets {
		us := slices.Clone(p.heaps[b])
		slices.SortFunc(us, func(x, y unit) int {
			if before(&x, &y) {
				return -1
			}
			return 1
		})
		ss := bySess[b]
		slices.SortFunc(ss, func(x, y sess) int { return cmp.Compare(x.mixed, y.mixed) })
		count, i, j := 0, 0, 0
		for count < alloc[b] && (i < len(us) || j < len(ss)) {
			if j == len(ss) || i < len(us) && us[i].key <= ss[j].mixed {
				singles = append(singles, us[i])
				count, i = count+1, i+1
				continue
			}
			t := ss[j].turns
			if count+t > alloc[b] && count+t-alloc[b] > alloc[b]-count {
				break // stopping short is nearer the share
			}
			chosen[ss[j].key] = t
			count, j = count+t, j+1
		}
	}
	return singles, chosen
}

// collect makes the entries drawn: from the first pass's units when none
// has hash_ids and no session is drawn, else by a second pass over the
// trace, which must read as the first did.
func (p *pass1) collect(open func() (io.ReadCloser, error), format string, singles []unit, sessions map[uint64]int) ([]Entry, error) {
	need := len(sessions) > 0
	byOrd := make(map[int]uint64, len(singles))
	for _, u := range singles {
		need = need || u.hashes
		byOrd[u.ord] = u.key
	}
	if !need {
		out := make([]Entry, len(singles))
		for i, u := range singles {
			out[i] = Entry{Line: u.line, At: u.at, Input: u.input, Output: u.output}
		}
		return out, nil
	}
	var out []Entry
	turns := map[uint64][]Entry{}
	ord, held := 0, 0
	var digest uint64
	hold := func(e Entry) error {
		if held += len(e.Hashes); held > MaxDrawHashes {
			return &Error{File: p.file, Line: e.Line, Field: "hash_ids", Why: fmt.Sprintf("the entries drawn hold more than %d hash_ids: lower sample", MaxDrawHashes)}
		}
		return nil
	}
	_, err := readWith(open, p.file, format, func(e Entry) error {
		k := entryKey(e)
		digest += mix(k)
		if want, ok := byOrd[ord]; ok && want == k {
			if err := hold(e); err != nil {
				return err
			}
			out = append(out, e)
			delete(byOrd, ord)
		}
		ord++
		if e.Session == "" {
			return nil
		}
		sk := sessionKey(e.Session)
		if c, ok := sessions[sk]; ok {
			if err := hold(e); err != nil {
				return err
			}
			turns[sk] = append(turns[sk], e)
			if len(turns[sk]) >= 2*c {
				turns[sk] = earliest(turns[sk], c)
			}
		}
		return nil
	}, func(int) {})
	if err != nil {
		return nil, err
	}
	if ord != p.lines || digest != p.digest || len(byOrd) > 0 {
		return nil, &Error{File: p.file, Why: fmt.Sprintf("changed while it was read (%d entries, then %d): read it again", p.lines, ord)}
	}
	for sk, c := range sessions {
		out = append(out, earliest(turns[sk], c)...)
	}
	return out, nil
}

// earliest keeps a session's first c turns, by arrival, then key, then
// line.
func earliest(ts []Entry, c int) []Entry {
	slices.SortFunc(ts, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(entryKey(a), entryKey(b)), cmp.Compare(a.Line, b.Line))
	})
	return ts[:min(len(ts), c)]
}

// reportStrata are the report's strata of a draw's input lengths: K =
// min(4, max(1, len/50)) groups of nearly equal count, each bound the
// largest input of its group; entries of equal input are never split, so
// a group absorbs the ties at its bound and a bound already taken is
// dropped (fewer strata).
func reportStrata(es []Entry) []int {
	if len(es) == 0 {
		return nil
	}
	in := make([]int, len(es))
	for i, e := range es {
		in[i] = e.Input
	}
	slices.Sort(in)
	k := min(4, max(1, len(in)/50))
	var bounds []int
	for j := 1; j <= k; j++ {
		b := in[j*len(in)/k-1]
		if len(bounds) == 0 || b > bounds[len(bounds)-1] {
			bounds = append(bounds, b)
		}
	}
	return bounds
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// entryKey hashes an entry's fields (not its line): its key in the draw.
func entryKey(e Entry) uint64 {
	h := uint64(0x6c617467617465) // "latgate"
	word := func(w uint64) { h = mix(h^w) + 0x9e3779b97f4a7c15 }
	word(uint64(e.At))
	word(uint64(e.Input))
	word(uint64(e.Output))
	word(uint64(len(e.Hashes)))
	for _, x := range e.Hashes {
		word(x)
	}
	word(sessionKey(e.Session))
	return mix(h)
}

// sessionKey hashes a session id (FNV-1a, mixed).
func sessionKey(s string) uint64 {
	if s == "" {
		return 0
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return mix(h)
}
