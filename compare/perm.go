package compare

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/latgate/latgate/vocab"
)

type testKind int

const (
	kindRank     testKind = iota // p50: Wilcoxon rank sum
	kindTail                     // p95, p99: upper-tail rank scores
	kindMean                     // mean: exceedance of the pooled mean
	kindMeanDiff                 // a count's mean (step_count): difference of means
	kindErrors                   // errors: difference of failure rates
	kindGoodput                  // goodput: difference of the shares missing the SLO
)

// testDef is one one-sided test of a check: dir +1 tests "worse by more
// than the tolerance", dir -1 "better by more than the tolerance".
type testDef struct {
	check  int // index into Result.Checks
	kind   testKind
	metric int // index into vocab.PerRequest; -1 for the rates
	q      float64
	dir    int
	// margin is a rate test's minimum effect: its observed statistic is
	// reduced by it, so the test asks "worse (better) by more than the
	// margin", as the latency tests do by scaling (see rateMargin).
	margin float64
	// stratum confines a latency test to the requests of one stratum of
	// input length (0: every request): the others score 0.
	stratum int
}

// Every test is a linear permutation statistic: D = Σ over the current
// run's requests of a score per request, the scores fixed by the pooled
// data (ranks, exceedance indicators, values, failure indicators; 0 for a
// request without a value). Under the exchange of labels within strata, D
// has an exact mean and variance (sampling without replacement in each
// stratum), so every test is standardized exactly: z = dir·(D − E[D])/SD[D].
// The standardization, and so the test, is a function of the data alone:
// no random draw enters it, and the permutations only estimate the
// p-value of a test that is fixed in advance (see westfallYoung).

// runTests holds a run's tests: their scores, exact moments, observed
// statistics and permutation distributions.
type runTests struct {
	pair    Pair
	blocked bool
	// stratified: both sides are of one draw from a trace; labels are
	// exchanged within strata of input length (strata.go).
	stratified bool
	n, nb      int // requests, of which the first nb are the baseline
	tests      []testDef
	// same[ti] is an earlier test with the same scores, or -1.
	same []int
	// distinct lists the tests with same -1; scores holds, per distinct
	// test (column), each request's centred score: a permutation adds up a
	// column's scores of the current requests, within a few hundred KB.
	distinct []int
	scores   [][]float32
	// strata are the groups of requests whose labels may be exchanged, in
	// a canonical order (by the requests' content); cur[s] is the number
	// of current requests of stratum s. fixed is D's part from requests in
	// no stratum (they never move), per distinct test.
	strata [][]int32
	cur    []int
	fixed  []float64
	seed   uint64 // from the run's data (never from its names)
	// mom are each test's exact permutation mean and SD of D; obs its
	// observed standardized statistic; perm its standardized statistic
	// under each permutation drawn so far.
	mom  [][2]float64
	obs  []float64
	perm [][]float64
}

// permChunk is the number of permutations one job computes, from a stream
// seeded by the run's data and the chunk's first permutation index, so
// results depend neither on cores, scheduling, names nor order, and no two
// chunks repeat each other.
const permChunk = 100

// newRunTests starts a run's tests; build prepares its data when the
// permutations are about to be drawn (after the intervals, so the two are
// never in memory together).
func newRunTests(r Pair, isBlocked, isStratified bool) *runTests {
	rt := &runTests{pair: r, blocked: isBlocked, stratified: isStratified, nb: r.Base.N()}
	rt.n = rt.nb + r.Head.N()
	return rt
}

// pooled is every metric's values over the run's requests (baseline
// first), NaN where missing, and alias[mi] the first metric with the same
// column (ttft, ttfc and perceived often are).
func (rt *runTests) pooled() (cols [][]float64, alias []int) {
	r := rt.pair
	cols = make([][]float64, len(vocab.PerRequest))
	for mi, m := range vocab.PerRequest {
		col := make([]float64, 0, rt.n)
		for _, s := range []*Sample{r.Base, r.Head} {
			vals := s.Values[m]
			for i, ok := range s.OK {
				v := math.NaN()
				if ok && i < len(vals) {
					v = vals[i]
				}
				col = append(col, v)
			}
		}
		cols[mi] = col
	}
	alias = make([]int, len(cols))
	for mi := range cols {
		alias[mi] = mi
		for mj := range mi {
			if alias[mj] == mj && sameValues(cols[mi], cols[mj]) {
				alias[mi] = mj
				break
			}
		}
	}
	return cols, alias
}

// build computes the run's scores, strata, seed and exact moments.
func (rt *runTests) build(cfg Config) {
	cols, alias := rt.pooled()
	var blocks, strata []int
	if rt.blocked {
		blocks = append(append(blocks, rt.pair.Base.Block...), rt.pair.Head.Block...)
	}
	if rt.stratified {
		strata = append(append(strata, rt.pair.Base.Stratum...), rt.pair.Head.Stratum...)
	}
	members := blockMembers(cellKeys(blocks, strata))
	miss := rt.misses(cfg)
	rt.same = make([]int, len(rt.tests))
	type key struct { // tests with the same key have the same scores
		kind   testKind
		metric int
		q      float64
		dir    int
		stra   int
	}
	first := map[key]int{}
	cache := map[[3]int]*scoredCol{} // (metric, dir, stratum): its scaled, aligned values and their ranks
	var byTest [][]float64           // the distinct tests' scores, by column
	for ti, t := range rt.tests {
		k := key{kind: t.kind, metric: -1, q: t.q, dir: t.dir, stra: t.stratum}
		if t.metric >= 0 {
			k.metric = alias[t.metric]
		}
		if j, ok := first[k]; ok {
			rt.same[ti] = j
			continue
		}
		first[k], rt.same[ti] = ti, -1
		rt.distinct = append(rt.distinct, ti)
		var s []float64
		switch t.kind {
		case kindErrors:
			s = indicators(rt.n, miss[0])
		case kindGoodput:
			s = indicators(rt.n, miss[1])
		default:
			s = scoresOf(rt.column(cache, cols, k.metric, t, members, strata, cfg), t.kind, t.q, cfg.scores)
		}
		byTest = append(byTest, centred(s))
	}
	// float32 halves the memory of a large run's scores; every sum of them
	// is taken in float64.
	rt.scores = make([][]float32, len(byTest))
	for c, s := range byTest {
		rt.scores[c] = make([]float32, rt.n)
		for i, x := range s {
			rt.scores[c][i] = float32(x)
		}
	}
	rt.strataOf(members)
	rt.moments(cfg)
}

// column is the scaled, aligned values of metric mi (pooled index, its
// alias) in test t's direction, and of t's stratum only (others NaN), from
// the cache of the run's columns.
func (rt *runTests) column(cache map[[3]int]*scoredCol, cols [][]float64, mi int, t testDef, members [][]int32, strata []int, cfg Config) *scoredCol {
	if c := cache[[3]int{mi, t.dir, t.stratum}]; c != nil {
		return c
	}
	var c *scoredCol
	if t.stratum > 0 {
		all := t
		all.stratum = 0
		c = &scoredCol{v: inStratum(rt.column(cache, cols, mi, all, members, strata, cfg).v, strata, t.stratum)}
	} else {
		scale := 1 / (1 + cfg.Tolerance)
		if t.dir < 0 {
			scale = 1 / (1 - cfg.Tolerance)
		}
		c = &scoredCol{v: aligned(cols[mi], rt.nb, scale, members, vocab.PerRequest[mi].IsCount())}
	}
	cache[[3]int{mi, t.dir, t.stratum}] = c
	return c
}

// misses lists the failed requests (errors) and the requests that missed
// the goodput SLO.
func (rt *runTests) misses(cfg Config) (miss [2][]int32) {
	i := int32(0)
	for _, s := range []*Sample{rt.pair.Base, rt.pair.Head} {
		for j, ok := range s.OK {
			if !ok {
				miss[0] = append(miss[0], i)
			}
			if !meets(s, j, cfg.Goodput) {
				miss[1] = append(miss[1], i)
			}
			i++
		}
	}
	return miss
}

func indicators(n int, at []int32) []float64 {
	s := make([]float64, n)
	for _, i := range at {
		s[i] = 1
	}
	return s
}

// centred subtracts the mean of the scores of the requests with a value
// (NaN marks those without), and gives those without a score of 0: they
// add nothing to D, whichever side they are on.
func centred(s []float64) []float64 {
	var sum, k float64
	for _, x := range s {
		if !math.IsNaN(x) {
			sum += x
			k++
		}
	}
	mean := 0.0
	if k > 0 {
		mean = sum / k
	}
	for i, x := range s {
		if math.IsNaN(x) {
			s[i] = 0
		} else {
			s[i] = x - mean
		}
	}
	return s
}

// blockMembers groups request indices by block number, in ascending block
// order; nil without blocks.
func blockMembers(block []int) [][]int32 {
	if block == nil {
		return nil
	}
	byBlock := map[int][]int32{}
	var keys []int
	for i, b := range block {
		if _, ok := byBlock[b]; !ok {
			keys = append(keys, b)
		}
		byBlock[b] = append(byBlock[b], int32(i))
	}
	sort.Ints(keys)
	out := make([][]int32, len(keys))
	for k, b := range keys {
		out[k] = byBlock[b]
	}
	return out
}

func sameValues(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// aligned is one metric's pooled values with the current ones (from index
// nb on) multiplied by scale, so that testing "no difference" on them
// tests "a difference of exactly the tolerance" on the real data.
//
// For an interleaved run (members not nil), every value is then divided
// by the median of its block's values of that metric, both variants
// together. That median is the same whatever the labels inside the block,
// so the within-block permutation test stays exact, and drift between
// blocks (the provider slowing down for a minute, a cold start) no longer
// widens the null distribution: the tests see each request relative to
// its neighbours in time. A count (step_count) is not divided: it does not
// drift with the provider's speed, and divided by its block's median its
// ties become small differences that hide a change (the exchange within
// blocks alone keeps the test exact).
func aligned(src []float64, nb int, scale float64, members [][]int32, count bool) []float64 {
	v := slices.Clone(src)
	for i := nb; i < len(v); i++ {
		v[i] *= scale
	}
	if count {
		return v
	}
	var vs []float64
	for _, idx := range members {
		vs = vs[:0]
		for _, i := range idx {
			if !math.IsNaN(v[i]) {
				vs = append(vs, v[i])
			}
		}
		if len(vs) == 0 {
			continue
		}
		sort.Float64s(vs)
		if med := Quantile(vs, 0.5); med > 0 {
			for _, i := range idx {
				v[i] /= med
			}
		}
	}
	return v
}

// midRanks are the mid-ranks (1 … m, ties sharing their mean rank) of the
// values that are not NaN, NaN elsewhere, and m.
func midRanks(v []float64) ([]float64, int) {
	order := make([]int, 0, len(v))
	for i, x := range v {
		if !math.IsNaN(x) {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	rank := make([]float64, len(v))
	for i := range rank {
		rank[i] = math.NaN()
	}
	for i := 0; i < len(order); {
		j := i
		for j+1 < len(order) && v[order[j+1]] == v[order[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			rank[order[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return rank, len(order)
}

// strataOf sets the run's strata: one of all requests, or one per cell
// (block of an interleaved run, stratum of input length of a run drawn
// from a trace, or both: cellKeys; a cell of one request never moves), each in a
// canonical order, by the requests' content, so that the order of the
// requests in the files does not change the permutations drawn; and the
// run's seed, from the same content (never from its names: renaming or
// reordering scenarios cannot change a verdict).
func (rt *runTests) strataOf(members [][]int32) {
	h := rt.requestHashes()
	rt.seed = 0
	for _, x := range h {
		rt.seed += mix64(x) // commutative: the order of requests does not matter
	}
	if members == nil {
		all := make([]int32, rt.n)
		for i := range all {
			all[i] = int32(i)
		}
		members = [][]int32{all}
	}
	rt.strata, rt.cur = nil, nil
	moves := make([]bool, rt.n)
	for _, idx := range members {
		if len(idx) < 2 {
			continue
		}
		st := slices.Clone(idx)
		slices.SortFunc(st, func(a, b int32) int {
			return cmp.Or(cmp.Compare(h[a], h[b]), cmp.Compare(a, b))
		})
		c := 0
		for _, i := range st {
			moves[i] = true
			if int(i) >= rt.nb {
				c++
			}
		}
		rt.strata, rt.cur = append(rt.strata, st), append(rt.cur, c)
	}
	k := len(rt.distinct)
	rt.fixed = make([]float64, k)
	for i := rt.nb; i < rt.n; i++ {
		if !moves[i] {
			for c := range k {
				rt.fixed[c] += float64(rt.scores[c][i])
			}
		}
	}
}

// requestHashes hashes each request's side, outcome and values.
func (rt *runTests) requestHashes() []uint64 {
	h := make([]uint64, 0, rt.n)
	for side, s := range []*Sample{rt.pair.Base, rt.pair.Head} {
		for i, ok := range s.OK {
			x := uint64(14695981039346656037) ^ uint64(side)
			if ok {
				x ^= 2
			}
			for _, m := range vocab.PerRequest {
				v := math.NaN()
				if vals := s.Values[m]; i < len(vals) {
					v = vals[i]
				}
				if math.IsNaN(v) {
					v = math.NaN() // one bit pattern for every NaN
				}
				x = mix64(x ^ math.Float64bits(v))
			}
			h = append(h, x)
		}
	}
	return h
}

// mix64 is SplitMix64's finalizer: a bijective mix of 64 bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// moments computes every test's exact permutation mean and SD of D and
// its observed standardized statistic. Within a stratum of n requests of
// which c are current, D's part is the sum of a random c of the n scores:
// mean c·s̄, variance c(n−c)/(n(n−1))·Σ(s − s̄)².
func (rt *runTests) moments(cfg Config) {
	k := len(rt.distinct)
	mean, vari := slices.Clone(rt.fixed), make([]float64, k)
	sum, sq := make([]float64, k), make([]float64, k)
	for si, st := range rt.strata {
		clear(sum)
		clear(sq)
		for _, i := range st {
			for c := range k {
				sum[c] += float64(rt.scores[c][i])
			}
		}
		n, cur := float64(len(st)), float64(rt.cur[si])
		for _, i := range st {
			for c := range k {
				d := float64(rt.scores[c][i]) - sum[c]/n
				sq[c] += d * d
			}
		}
		for c := range k {
			mean[c] += cur * sum[c] / n
			vari[c] += cur * (n - cur) / (n * (n - 1)) * sq[c]
		}
	}
	obs := make([]float64, k)
	for i := rt.nb; i < rt.n; i++ {
		for c := range k {
			obs[c] += float64(rt.scores[c][i])
		}
	}
	rt.mom = make([][2]float64, len(rt.tests))
	rt.obs = make([]float64, len(rt.tests))
	rt.perm = make([][]float64, len(rt.tests))
	col := map[int]int{}
	for c, ti := range rt.distinct {
		col[ti] = c
	}
	nc, nb := float64(rt.n-rt.nb), float64(rt.nb)
	for ti, t := range rt.tests {
		src := ti
		if rt.same[ti] >= 0 {
			src = rt.same[ti]
		}
		c := col[src]
		sd := math.Sqrt(vari[c])
		rt.mom[ti] = [2]float64{mean[c], sd}
		rt.obs[ti] = math.Inf(-1) // a degenerate test can never be significant
		if sd > 1e-9*math.Max(1, math.Abs(mean[c])) {
			// A rate's margin is in the units of its statistic,
			// D·(1/nc + 1/nb): the difference of the two rates.
			marginD := t.margin / (1/nc + 1/nb)
			rt.obs[ti] = (float64(t.dir)*(obs[c]-mean[c]) - marginD) / sd
		} else {
			rt.mom[ti][1] = 0
		}
	}
}

// permute fills permutations [from, to): labels are exchanged within
// strata only, from the chunk's own stream, and nothing is allocated per
// permutation.
func (rt *runTests) permute(cfg Config, from, to int) {
	rng := rand.New(rand.NewPCG(cfg.Seed^rt.seed, (uint64(from)+1)*0x9e3779b97f4a7c15))
	strata := make([][]int32, len(rt.strata))
	for s, st := range rt.strata {
		strata[s] = slices.Clone(st)
	}
	k := len(rt.distinct)
	d := make([]float64, k)
	col := make([]int, len(rt.tests))
	for c, ti := range rt.distinct {
		col[ti] = c
	}
	for ti := range rt.tests {
		if j := rt.same[ti]; j >= 0 {
			col[ti] = col[j]
		}
	}
	chosen := make([]int32, 0, rt.n-rt.nb)
	for b := from; b < to; b++ {
		chosen = chosen[:0]
		for s, st := range strata {
			// A uniformly random subset of cur[s] of the stratum's
			// requests is the current run's: a partial shuffle.
			n := len(st)
			for j := range rt.cur[s] {
				r := j + rng.IntN(n-j)
				st[j], st[r] = st[r], st[j]
			}
			chosen = append(chosen, st[:rt.cur[s]]...)
		}
		for c, scores := range rt.scores {
			sum := rt.fixed[c]
			for _, i := range chosen {
				sum += float64(scores[i])
			}
			d[c] = sum
		}
		for ti, t := range rt.tests {
			m := rt.mom[ti]
			v := 0.0
			if m[1] > 0 {
				v = float64(t.dir) * (d[col[ti]] - m[0]) / m[1]
			}
			rt.perm[ti][b] = v
		}
	}
}

// westfallYoung fills RawP and PValue of every tested check: single-step
// maxT over all one-sided tests of the suite, each run's request labels
// permuted jointly for all its tests.
//
// Permutations are drawn sequentially (sequential Monte Carlo): a first
// batch of firstBatch, then doubling up to cfg.Permutations, and on up to
// MaxPermutations while a status-deciding p-value is not settled: the
// drawing stops as soon as every check whose status depends on its
// p-value is, but for a chance below smcError, on the side of Alpha the
// exact permutation p-value is on (see settled), so a verdict does not
// hang on the random stream (a renamed scenario draws another). A check
// still unsettled after MaxPermutations is marked Unsettled: its verdict
// is within Monte Carlo error of Alpha. Checks whose point estimate is
// within the thresholds are OK whatever their p-value, so a suite with no
// change beyond them stops after the first batch. Res.Permutations says
// how many were drawn. Permutations come in chunks computed in parallel, each from
// its own stream seeded by the run's identity and the chunk's index, so
// the result depends neither on the order of runs nor on scheduling.
func westfallYoung(res *Result, data []*runTests, cfg Config, at []atMax) {
	var k int
	for _, d := range data {
		k += len(d.tests)
	}
	InParallel(len(data), func(i int) {
		data[i].build(cfg)
	})
	if k == 0 {
		return
	}
	B := cfg.maxPermutations()
	total := cfg.Permutations
	if firstBatch > 0 {
		total = min(total, firstBatch)
	}
	done := 0
	var n counts
	for {
		type job struct{ run, from, to int }
		var jobs []job
		for ri, d := range data {
			for ti := range d.perm {
				d.perm[ti] = slices.Grow(d.perm[ti], total-len(d.perm[ti]))[:total]
			}
			for from := done; from < total; from += permChunk {
				jobs = append(jobs, job{ri, from, min(from+permChunk, total)})
			}
		}
		InParallel(len(jobs), func(i int) {
			j := jobs[i]
			data[j.run].permute(cfg, j.from, j.to)
		})
		done = total
		n = adjust(res, data, done)
		if done >= cfg.Permutations && done == B || settledAll(res, n, cfg, done, false, at) {
			break
		}
		if firstBatch == 0 && done >= cfg.Permutations {
			break // every permutation at once (the calibration's reference)
		}
		total = min(B, 2*done)
	}
	if done == B && B > cfg.Permutations {
		settledAll(res, n, cfg, done, true, at)
	}
	res.Permutations = done
}

// maxPermutations bounds the sequential drawing: 4 × Permutations (a
// suite's permutations are joint: one borderline check draws them all).
func (c Config) maxPermutations() int {
	if c.MaxPermutations > 0 {
		return max(c.MaxPermutations, c.Permutations)
	}
	return 4 * c.Permutations
}

// firstBatch is the size of the first batch of permutations; 0 draws all
// cfg.Permutations at once.
var firstBatch = 200

// smcError bounds, per check and batch, the probability that the
// sequential drawing stops with a status other than the one an unlimited
// number of permutations would give.
const smcError = 1e-3

// counts are, per check, the permutations at least as extreme as the
// observed statistic (-1 for a check not tested): exceed in the family
// (the adjusted p-value's), raw in the test of the estimate's direction
// (the raw p-value's).
type counts struct{ exceed, raw []int }

// settledAll reports whether every check whose status depends on its
// p-values is settled after b of cfg.Permutations permutations: its
// adjusted p-value against Alpha, and for a change for the worse its raw
// p-value too (significant alone, not after the correction, is
// inconclusive), unless its run could not test it even at max (at: it is
// then not tested unless a regression, so its raw p-value decides
// nothing). With mark, the checks still unsettled are marked so.
func settledAll(res *Result, n counts, cfg Config, b int, mark bool, at []atMax) bool {
	cdf := binomialCDF(b, cfg.Alpha)
	all := true
	for i := range res.Checks {
		c := &res.Checks[i]
		if n.exceed[i] < 0 || !pDecides(c, cfg) {
			continue
		}
		if settled(n.exceed[i], b, cfg.Alpha, cdf) && (!c.worse() || at[i].need > 0 || settled(n.raw[i], b, cfg.Alpha, cdf)) {
			continue
		}
		if !mark {
			return false
		}
		c.Unsettled, all = true, false
	}
	return all
}

// settled reports whether a p-value estimated from a exceedances in b
// permutations is, but for a chance below smcError, on the same side of
// alpha as the exact permutation p-value (the exceedance probability): a
// binomial test of that probability against alpha (cdf is the Bin(b,
// alpha) distribution function), in agreement with (1+a)/(b+1) itself.
func settled(a, b int, alpha float64, cdf []float64) bool {
	if alpha <= 0 {
		return true
	}
	p := float64(1+a) / float64(b+1)
	if p <= alpha {
		return cdf[a] < smcError // P(Bin(b, pi) ≤ a): so few only if the rate is below pi
	}
	upper := 1.0
	if a > 0 {
		upper = 1 - cdf[a-1] // P(Bin(b, pi) ≥ a)
	}
	return upper < smcError
}

// pDecides reports whether a tested check's status depends on its p-value:
// within budget and with its estimate beyond the thresholds.
func pDecides(c *Check, cfg Config) bool {
	if c.Status != "" || exceedsBudget(c) {
		return false
	}
	beyond, _ := practical(c, cfg)
	return beyond
}

// adjust computes the raw and adjusted p-values from the first b
// permutations of every run and returns, per check, the number of
// permutations whose largest standardized statistic reaches the check's,
// and the number whose own statistic reaches it (the raw p-value's count;
// -1 for checks not tested).
//
// Raw p-values, and each permutation's largest standardized statistic
// across the family (maxT): each test is standardized by the mean and SD
// of its own permutation distribution, so an observation far beyond
// anything the permutations produced gets a small adjusted p-value however
// fine the permutation grid.
//
// One family per direction: the gate fails on regressions only, so false
// regression claims are held to alpha among the regression tests, and
// false improvement claims among the improvement tests. Error rates form
// families of their own: a rise in failed requests is held to alpha among
// the suite's error-rate checks, never diluted by its many latency checks
// (0 % → 12.5 % failed at 40 requests would otherwise pass a suite of a
// few scenarios).
func adjust(res *Result, data []*runTests, b int) counts {
	family := func(t testDef) int {
		if t.kind == kindErrors || t.kind == kindGoodput {
			return 2 * t.dir
		}
		return t.dir
	}
	maxZ := map[int][]float64{}
	for _, d := range data {
		for ti, t := range d.tests {
			f := family(t)
			mz := maxZ[f]
			if mz == nil {
				mz = make([]float64, b)
				for i := range mz {
					mz[i] = math.Inf(-1)
				}
				maxZ[f] = mz
			}
			for i, v := range d.perm[ti][:b] {
				mz[i] = math.Max(mz[i], v)
			}
		}
	}
	for _, m := range maxZ {
		sort.Float64s(m)
	}
	n := counts{exceed: make([]int, len(res.Checks)), raw: make([]int, len(res.Checks))}
	for i := range n.exceed {
		n.exceed[i], n.raw[i] = -1, -1
	}
	tested := map[int]bool{}
	for _, d := range data {
		for ti, t := range d.tests {
			c := &res.Checks[t.check]
			tested[t.check] = true
			obs := d.obs[ti]
			geq := 0
			for _, v := range d.perm[ti][:b] {
				if v >= obs-1e-12*math.Max(1, math.Abs(obs)) {
					geq++
				}
			}
			atLeast := b - sort.SearchFloat64s(maxZ[family(t)], obs-1e-12)
			// Keep the direction the point estimate points to.
			if wantWorse := c.worse() || c.Current == c.Baseline; (t.dir > 0) == wantWorse {
				c.RawP = float64(1+geq) / float64(b+1)
				c.PValue = math.Min(1, float64(1+atLeast)/float64(b+1))
				n.exceed[t.check], n.raw[t.check] = atLeast, geq
			}
		}
	}
	res.Tested = len(tested)
	return n
}

// testedChecks is the number of checks with a test: the size of the
// multiple-comparison family (Result.Tested once the permutations are
// drawn).
func testedChecks(data []*runTests) int {
	seen := map[int]bool{}
	for _, d := range data {
		for _, t := range d.tests {
			seen[t.check] = true
		}
	}
	return len(seen)
}
