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
	kindRank     testKind = iota // p50: difference of mean ranks
	kindTail                     // p95, p99: exceedance of the baseline's quantile
	kindMean                     // mean: exceedance of the baseline's mean
	kindMeanDiff                 // a count's mean (step_count): difference of means
	kindErrors                   // errors: difference of failure rates
	kindGoodput                  // goodput: difference of the shares missing the SLO
)

// testDef is one one-sided test of a check: dir +1 tests "worse by more
// than the tolerance", dir -1 "better by more than the tolerance".
type testDef struct {
	check  int // index into Result.Checks
	kind   testKind
	metric int // index into vocab.PerRequest; -1 for errors
	q      float64
	dir    int
	// margin is a rate test's minimum effect: its observed statistic is
	// reduced by it, so the test asks "worse (better) by more than the
	// margin", as the latency tests do by scaling (see rateMargin).
	margin float64
}

// runTests holds a run's requests pooled (baseline first), its columns
// twice, with the current values scaled for each direction's
// minimum-effect null hypothesis, and its tests and their permutation
// distributions.
type runTests struct {
	pair          Pair
	blocked       bool
	n, nb         int // requests, of which the first nb are the baseline
	worse, better *runData
	// miss lists the failed requests (errors) and the requests that missed
	// the goodput SLO: a rate test walks only these.
	miss  [2][]int32
	tests []testDef
	// same[ti] is an earlier test that always has test ti's value, or -1.
	same []int
	// strata are the groups of requests whose labels may be exchanged: one
	// group of all requests, or one per block of an interleaved run.
	strata [][]int32
	seed   uint64 // from the run's identity
	// alias[mi] is the first metric whose column is identical to metric
	// mi's (ttft, ttfc and perceived often are): their statistics agree
	// under every permutation, so each is computed once.
	alias []int
	obs   []float64   // per test: its observed statistic
	perm  [][]float64 // per test: its statistic under each permutation so far
	// moments are each test's standardization: the exact permutation mean
	// and SD for the rate tests, else those of its first standardizeOn
	// permutations; NaN until known. Fixed once known, so the sequential
	// drawing sees the same statistic in every batch.
	moments [][2]float64
}

// standardizeOn is the number of permutations a latency test's mean and SD
// are estimated from, whatever the number drawn in the end.
const standardizeOn = 200

// runData is one scaled copy of a run's metrics: one column per metric
// that is not an alias (nil otherwise).
type runData struct {
	cols []*column
}

// column is one metric of the pooled requests: the requests with a value,
// sorted by it.
type column struct {
	order   []int32   // request indices, ascending by value
	val     []float64 // their values
	rank    []float64 // their mid-ranks; nil without ties (rank = position + 1)
	sumRank float64
	sum     float64 // of the values
}

// permChunk is the number of permutations one job computes, from a stream
// seeded by the run's identity and the chunk's first permutation index, so
// results do not depend on cores or scheduling, and no two chunks repeat
// each other.
const permChunk = 100

// newRunTests starts a run's tests; build prepares its data when the
// permutations are about to be drawn (after the intervals, so the two are
// never in memory together).
func newRunTests(r Pair, isBlocked bool) *runTests {
	rt := &runTests{pair: r, blocked: isBlocked, nb: r.Base.N(), seed: hash(r.Endpoint + "\x00" + r.Scenario)}
	rt.n = rt.nb + r.Head.N()
	return rt
}

// build pools the run's requests and sorts its columns.
func (rt *runTests) build(cfg Config) {
	r, isBlocked := rt.pair, rt.blocked
	// Pooled values per metric, NaN where missing.
	pooled := make([][]float64, len(vocab.PerRequest))
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
		pooled[mi] = col
	}
	rt.alias = make([]int, len(vocab.PerRequest))
	for mi := range vocab.PerRequest {
		rt.alias[mi] = mi
		for mj := range mi {
			if rt.alias[mj] == mj && sameValues(pooled[mi], pooled[mj]) {
				rt.alias[mi] = mj
				break
			}
		}
	}
	var blocks []int
	if isBlocked {
		blocks = append(append(blocks, r.Base.Block...), r.Head.Block...)
	}
	members := blockMembers(blocks)
	rt.worse = newRunData(pooled, rt.alias, rt.nb, 1/(1+cfg.Tolerance), members)
	if cfg.Tolerance < 1 {
		rt.better = newRunData(pooled, rt.alias, rt.nb, 1/(1-cfg.Tolerance), members)
	}
	i := int32(0)
	for _, s := range []*Sample{r.Base, r.Head} {
		for j, ok := range s.OK {
			if !ok {
				rt.miss[0] = append(rt.miss[0], i)
			}
			if !meets(s, j, cfg.Goodput) {
				rt.miss[1] = append(rt.miss[1], i)
			}
			i++
		}
	}
	if !isBlocked {
		all := make([]int32, rt.n)
		for i := range all {
			all[i] = int32(i)
		}
		rt.strata = [][]int32{all}
		return
	}
	for _, idx := range members {
		if len(idx) > 1 {
			rt.strata = append(rt.strata, idx)
		}
	}
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

// sortedOrder returns the indices of v's values that are not NaN and
// those values, ascending (equal values by index).
func sortedOrder(v []float64) ([]int32, []float64) {
	type iv struct {
		v float64
		i int32
	}
	pairs := make([]iv, 0, len(v))
	for i, x := range v {
		if !math.IsNaN(x) {
			pairs = append(pairs, iv{x, int32(i)})
		}
	}
	slices.SortFunc(pairs, func(a, b iv) int {
		if c := cmp.Compare(a.v, b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	order, val := make([]int32, len(pairs)), make([]float64, len(pairs))
	for k, p := range pairs {
		order[k], val[k] = p.i, p.v
	}
	return order, val
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

// newRunData builds the columns of one scaled copy: the current values
// (from index nb on) multiplied by scale, so testing "no difference" on
// the scaled data tests "a difference of exactly the tolerance" on the
// real data.
//
// For an interleaved run (members not nil), every value is then divided
// by the median of its block's values of that metric, both variants
// together. That median is the same whatever the labels inside the block,
// so the within-block permutation test stays exact, and drift between
// blocks (the provider slowing down for a minute, a cold start) no longer
// widens the null distribution: the tests see each request relative to
// its neighbours in time. A count (step_count) is not divided: it does not
// drift with the provider's speed, and divided by its block's median its
// ties become small differences around the baseline's mean, so that most
// of an unchanged baseline lies "above its mean" and the mean's exceedance
// test loses its power (the exchange within blocks alone keeps the test
// exact).
func newRunData(pooled [][]float64, alias []int, nb int, scale float64, members [][]int32) *runData {
	d := &runData{cols: make([]*column, len(pooled))}
	v := make([]float64, 0, len(pooled[0]))
	var vs []float64
	for mi, src := range pooled {
		if alias[mi] != mi {
			continue
		}
		v = append(v[:0], src...)
		for i := nb; i < len(v); i++ {
			v[i] *= scale
		}
		align := members
		if vocab.PerRequest[mi].IsCount() {
			align = nil
		}
		for _, idx := range align {
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
		c := &column{}
		c.order, c.val = sortedOrder(v)
		m := len(c.val)
		c.sumRank = float64(m) * float64(m+1) / 2 // the same with or without ties
		for _, x := range c.val {
			c.sum += x
		}
		for k := 1; k < m; k++ {
			if c.val[k] == c.val[k-1] {
				c.rank = midRanks(c.val)
				break
			}
		}
		d.cols[mi] = c
	}
	return d
}

// midRanks are the ranks of sorted values, ties sharing their mean rank.
func midRanks(val []float64) []float64 {
	rank := make([]float64, len(val))
	for i := 0; i < len(val); {
		j := i
		for j+1 < len(val) && val[j+1] == val[i] {
			j++
		}
		mid := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			rank[k] = mid
		}
		i = j + 1
	}
	return rank
}

// labels is the observed labelling: 0 for the baseline's requests, 1 for
// the current run's. Labels are numbers so that the statistics add them up
// without branching on them, and bytes so that a large run's labels stay
// in the processor's cache.
func (rt *runTests) labels() []uint8 {
	lab := make([]uint8, rt.n)
	for i := rt.nb; i < rt.n; i++ {
		lab[i] = 1
	}
	return lab
}

// pass is what one walk over a column gives every test of that column:
// the current requests with a value, the sum of their ranks, and the sum
// of the baseline's values.
type pass struct {
	nc, sc, sumB float64
	done         bool
}

// scratch is one job's reusable state: the passes of the labelling being
// evaluated, per direction and metric.
type scratch struct {
	passes [2][]pass
}

func newScratch() *scratch {
	return &scratch{passes: [2][]pass{make([]pass, len(vocab.PerRequest)), make([]pass, len(vocab.PerRequest))}}
}

// eval computes every test's statistic for the labelling lab, oriented so
// that larger is more extreme in the test's direction.
func (rt *runTests) eval(lab []uint8, out []float64, s *scratch) {
	clear(s.passes[0])
	clear(s.passes[1])
	for ti, t := range rt.tests {
		if j := rt.same[ti]; j >= 0 {
			out[ti] = out[j]
			continue
		}
		switch t.kind {
		case kindErrors, kindGoodput:
			miss := rt.miss[0]
			if t.kind == kindGoodput {
				miss = rt.miss[1]
			}
			fci := 0
			for _, i := range miss {
				fci += int(lab[i])
			}
			fc := float64(fci)
			nc, nb := float64(rt.n-rt.nb), float64(rt.nb)
			out[ti] = float64(t.dir) * (fc/nc - (float64(len(miss))-fc)/nb)
			continue
		}
		d, di := rt.worse, 0
		if t.dir < 0 {
			d, di = rt.better, 1
		}
		mi := rt.alias[t.metric]
		p := &s.passes[di][mi]
		c := d.cols[mi]
		if !p.done {
			*p = c.walk(lab)
		}
		out[ti] = float64(t.dir) * c.statistic(t, lab, p)
	}
}

// walk is the one full pass over a column per labelling. It adds every
// value multiplied by its label (or one minus it) instead of branching on
// the label: the labels are random, so a branch would be mispredicted half
// the time. The sums are the same, term by term, as branching would give.
//
// Without ties a value's rank is its position plus one, so a column keeps
// rank only when it has ties.
func (c *column) walk(lab []uint8) pass {
	var p pass
	if c.rank == nil {
		for k, i := range c.order {
			l := float64(lab[i])
			p.nc += l
			p.sc += float64(k+1) * l
			p.sumB += c.val[k] * (1 - l)
		}
	} else {
		for k, i := range c.order {
			l := float64(lab[i])
			p.nc += l
			p.sc += c.rank[k] * l
			p.sumB += c.val[k] * (1 - l)
		}
	}
	p.done = true
	return p
}

// statistic computes test t of this column for the labelling lab.
func (c *column) statistic(t testDef, lab []uint8, p *pass) float64 {
	if t.kind == kindRank {
		// Mann-Whitney U as the difference of mean ranks, scaled by N.
		nc := p.nc
		nb := float64(len(c.order)) - nc
		if nc == 0 || nb == 0 {
			return 0
		}
		return (p.sc/nc - (c.sumRank-p.sc)/nb) / (nc + nb)
	}
	if t.kind == kindMeanDiff {
		nc, nb := p.nc, float64(len(c.order))-p.nc
		if nc == 0 || nb == 0 {
			return 0
		}
		return (c.sum-p.sumB)/nc - p.sumB/nb
	}
	// Exceedance: how much more of the current side than of the baseline
	// side lies above a threshold from the baseline side (its q-quantile,
	// or its mean), recomputed for every permutation from that
	// permutation's baseline group.
	nc := int(p.nc)
	nb := len(c.order) - nc
	if nc < 2 || nb < 2 {
		return 0
	}
	var tau float64
	if t.kind == kindMean {
		tau = p.sumB / float64(nb)
	} else {
		tau = groupQuantile(c.order, c.val, lab, nb, t.q)
	}
	// val is sorted: everything above tau is a suffix.
	from := sort.Search(len(c.val), func(k int) bool { return c.val[k] > tau })
	eci := 0
	for _, i := range c.order[from:] {
		eci += int(lab[i])
	}
	ec := float64(eci)
	eb := float64(len(c.order)-from) - ec
	return ec/float64(nc) - eb/float64(nb)
}

// groupQuantile is the type-7 q-quantile of the baseline side (label 0, n
// requests) of the pooled order, found by walking it once.
func groupQuantile(order []int32, val []float64, lab []uint8, n int, q float64) float64 {
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	frac := h - float64(lo)
	if q > 0.5 {
		// Walk from the top: the upper quantiles are near it.
		pos := 0
		var vhi float64
		for k := len(order) - 1; k >= 0; k-- {
			if lab[order[k]] != 0 {
				continue
			}
			if pos == n-2-lo {
				vhi = val[k]
			}
			if pos == n-1-lo {
				if frac == 0 || lo == n-1 {
					return val[k]
				}
				return val[k] + frac*(vhi-val[k])
			}
			pos++
		}
		return math.NaN()
	}
	pos := 0
	var vlo float64
	for k, i := range order {
		if lab[i] != 0 {
			continue
		}
		if pos == lo {
			vlo = val[k]
			if frac == 0 || lo == n-1 {
				return vlo
			}
		}
		if pos == lo+1 {
			return vlo + frac*(val[k]-vlo)
		}
		pos++
	}
	return vlo
}

// prepare computes the observed statistics and which tests duplicate an
// earlier one.
func (rt *runTests) prepare() {
	rt.same = make([]int, len(rt.tests))
	for ti, t := range rt.tests {
		rt.same[ti] = -1
		for tj, u := range rt.tests[:ti] {
			if t.metric >= 0 && u.metric >= 0 && t.kind == u.kind && t.q == u.q && t.dir == u.dir && rt.alias[t.metric] == rt.alias[u.metric] {
				rt.same[ti] = tj
				break
			}
		}
	}
	rt.obs = make([]float64, len(rt.tests))
	rt.eval(rt.labels(), rt.obs, newScratch())
	for ti, t := range rt.tests {
		rt.obs[ti] -= t.margin
	}
	rt.perm = make([][]float64, len(rt.tests))
	rt.moments = make([][2]float64, len(rt.tests))
	for ti, t := range rt.tests {
		rt.moments[ti] = [2]float64{math.NaN(), math.NaN()}
		switch t.kind {
		case kindErrors:
			rt.moments[ti] = rt.rateMoments(rt.miss[0], t.dir)
		case kindGoodput:
			rt.moments[ti] = rt.rateMoments(rt.miss[1], t.dir)
		}
	}
}

// rateMoments is the exact mean and SD, under the permutations, of a rate
// test's statistic dir·(fc/nc − (K−fc)/nb), fc the current run's share of
// the K missing requests: within each stratum fc is hypergeometric, and
// requests in no stratum never move.
func (rt *runTests) rateMoments(miss []int32, dir int) [2]float64 {
	isMiss := make([]bool, rt.n)
	for _, i := range miss {
		isMiss[i] = true
	}
	moves := make([]bool, rt.n)
	var mean, variance float64
	for _, st := range rt.strata {
		var n, c, k float64
		for _, i := range st {
			moves[i] = true
			n++
			if int(i) >= rt.nb {
				c++
			}
			if isMiss[i] {
				k++
			}
		}
		mean += k * c / n
		if n > 1 {
			variance += c * (k / n) * (1 - k/n) * (n - c) / (n - 1)
		}
	}
	for i := rt.nb; i < rt.n; i++ {
		if !moves[i] && isMiss[i] {
			mean++
		}
	}
	nc, nb := float64(rt.n-rt.nb), float64(rt.nb)
	f := 1/nc + 1/nb
	sd := math.Sqrt(variance) * f
	if sd < 1e-12 {
		sd = 0
	}
	return [2]float64{float64(dir) * (mean*f - float64(len(miss))/nb), sd}
}

// permute fills permutations [from, to): labels are exchanged within
// strata only, from the chunk's own stream, and nothing is allocated per
// permutation.
func (rt *runTests) permute(cfg Config, from, to int) {
	rng := rand.New(rand.NewPCG(cfg.Seed^rt.seed, (uint64(from)+1)*0x9e3779b97f4a7c15))
	lab := rt.labels()
	out := make([]float64, len(rt.tests))
	s := newScratch()
	for b := from; b < to; b++ {
		for _, st := range rt.strata {
			for i := len(st) - 1; i > 0; i-- {
				j := rng.IntN(i + 1)
				lab[st[i]], lab[st[j]] = lab[st[j]], lab[st[i]]
			}
		}
		rt.eval(lab, out, s)
		for ti, v := range out {
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
func westfallYoung(res *Result, data []*runTests, cfg Config) {
	var k int
	for _, d := range data {
		k += len(d.tests)
	}
	InParallel(len(data), func(i int) {
		data[i].build(cfg)
		data[i].prepare()
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
	var exceed, raw []int
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
		exceed, raw = adjust(res, data, done)
		if done >= cfg.Permutations && done == B || settledAll(res, exceed, raw, cfg, done, false) {
			break
		}
		if firstBatch == 0 && done >= cfg.Permutations {
			break // every permutation at once (the calibration's reference)
		}
		total = min(B, 2*done)
	}
	if done == B && B > cfg.Permutations {
		settledAll(res, exceed, raw, cfg, done, true)
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

// settledAll reports whether every check whose status depends on its
// p-value is settled after b of cfg.Permutations permutations; exceed
// holds each check's count of permutations at least as extreme (-1 when
// not tested), raw the counts of its raw p-value. A check pointing to the
// worse is also settled against each of cfg.rawSettle, the thresholds an
// interim look compares its raw p-value with.
func settledAll(res *Result, exceed, raw []int, cfg Config, b int, mark bool) bool {
	cdfs := map[float64][]float64{}
	isSettled := func(a int, level float64) bool {
		cdf, ok := cdfs[level]
		if !ok {
			cdf = binomialCDF(b, level)
			cdfs[level] = cdf
		}
		return settled(a, b, level, cdf)
	}
	all := true
	for i := range res.Checks {
		c := &res.Checks[i]
		if exceed[i] < 0 || !pDecides(c, cfg) {
			continue
		}
		if !isSettled(exceed[i], cfg.Alpha) {
			if !mark {
				return false
			}
			c.Unsettled, all = true, false
			continue
		}
		if c.worse() && !mark {
			for _, level := range cfg.rawSettle {
				if !isSettled(raw[i], level) {
					return false
				}
			}
		}
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

// estimateMoments is the mean and SD of a test's permutation values.
func estimateMoments(col []float64) [2]float64 {
	var mean, sq float64
	for _, v := range col {
		mean += v
	}
	mean /= float64(len(col))
	for _, v := range col {
		sq += (v - mean) * (v - mean)
	}
	return [2]float64{mean, math.Sqrt(sq / float64(len(col)))}
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
func adjust(res *Result, data []*runTests, b int) (exceed, raw []int) {
	family := func(t testDef) int {
		if t.kind == kindErrors || t.kind == kindGoodput {
			return 2 * t.dir
		}
		return t.dir
	}
	maxZ := map[int][]float64{}
	type zt struct{ obs, mean, sd float64 }
	zs := make([][]zt, len(data))
	for ri, d := range data {
		zs[ri] = make([]zt, len(d.tests))
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
			col := d.perm[ti][:b]
			if math.IsNaN(d.moments[ti][0]) {
				d.moments[ti] = estimateMoments(col[:min(b, standardizeOn)])
			}
			mean, sd := d.moments[ti][0], d.moments[ti][1]
			z := zt{obs: math.Inf(-1), mean: mean, sd: sd} // a degenerate test can never be significant
			if sd > 0 {
				z.obs = (d.obs[ti] - mean) / sd
				for i, v := range col {
					mz[i] = math.Max(mz[i], (v-mean)/sd)
				}
			} else {
				for i := range col {
					mz[i] = math.Max(mz[i], 0)
				}
			}
			zs[ri][ti] = z
		}
	}
	for _, m := range maxZ {
		sort.Float64s(m)
	}
	exceed = make([]int, len(res.Checks))
	raw = make([]int, len(res.Checks))
	for i := range exceed {
		exceed[i], raw[i] = -1, -1
	}
	tested := map[int]bool{}
	for ri, d := range data {
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
			atLeast := b - sort.SearchFloat64s(maxZ[family(t)], zs[ri][ti].obs-1e-12)
			// Keep the direction the point estimate points to.
			if wantWorse := c.worse() || c.Current == c.Baseline; (t.dir > 0) == wantWorse {
				c.RawP = float64(1+geq) / float64(b+1)
				c.PValue = math.Min(1, float64(1+atLeast)/float64(b+1))
				exceed[t.check], raw[t.check] = atLeast, geq
			}
		}
	}
	res.Tested = len(tested)
	return exceed, raw
}
