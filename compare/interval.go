package compare

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/latgate/latgate/vocab"
)

// QuantileCI is a distribution-free confidence interval for the q-quantile
// from the order statistics of sorted (binomial argument), at level 1-alpha.
// NaN bounds when n is too small for that side.
func QuantileCI(sorted []float64, q, alpha float64) [2]float64 {
	n := len(sorted)
	out := [2]float64{math.NaN(), math.NaN()}
	if n == 0 {
		return out
	}
	cdf := binomialCDF(n, q)
	// P(X_(j) <= Q) = P(Bin >= j) = 1 - CDF(j-1).
	for j := n; j >= 1; j-- {
		if cdf[j-1] <= alpha/2 {
			out[0] = sorted[j-1]
			break
		}
	}
	for j := 1; j <= n; j++ {
		if cdf[j-1] >= 1-alpha/2 {
			out[1] = sorted[j-1]
			break
		}
	}
	return out
}

// binomialCDF returns P(Bin(n, p) <= k) for k = 0..n, from the log
// probability mass (math.Lgamma), so it stays accurate for large n.
func binomialCDF(n int, p float64) []float64 {
	cdf := make([]float64, n+1)
	lp, lq := math.Log(p), math.Log1p(-p)
	ln1, _ := math.Lgamma(float64(n + 1))
	var acc float64
	for k := 0; k <= n; k++ {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		acc += math.Exp(ln1 - lk - lnk + float64(k)*lp + float64(n-k)*lq)
		cdf[k] = math.Min(acc, 1)
	}
	return cdf
}

// binomialUpper is P(Bin(n, p) >= k).
func binomialUpper(n, k int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	return math.Max(0, 1-binomialCDF(n, p)[k-1])
}

// A change interval is a seeded percentile bootstrap of the relative
// change of a statistic, in percent. One resample serves every interval
// of a run: unpaired runs resample each side's requests (whole requests,
// failures included, drawn as counts over the sorted values, so no
// resample is sorted); interleaved runs resample whole blocks, each with
// both its base and current requests, so drift between blocks stays in
// the interval. Each interval is a quantile of its own statistic's
// resampling distribution, which sharing the resample does not change.

// bootPlan is one run's intervals to compute.
type bootPlan struct {
	r       Pair
	blocked bool
	wants   []bootWant
	checks  []int // for Compare: the check each want belongs to
}

// bootWant is one statistic of one metric.
type bootWant struct {
	metric  int // index into vocab.PerRequest
	st      statDef
	stratum int // the requests of one stratum of input length; 0: all
}

// bootChunk is the number of resamples one job draws, from a stream seeded
// by the run's identity and the chunk's first resample index.
const bootChunk = 250

// bootCol is one metric of one side (of one stratum's requests): the
// requests with a value, sorted by it, and those without (the other
// strata's among them).
type bootCol struct {
	order   []int32
	val     []float64
	missing []int32
}

func newBootCol(s *Sample, metric vocab.Metric, stratum int) *bootCol {
	c := &bootCol{}
	vals := s.Values[metric]
	v := make([]float64, len(s.OK))
	for i, ok := range s.OK {
		v[i] = math.NaN()
		if ok && i < len(vals) && (stratum == 0 || i < len(s.Stratum) && s.Stratum[i] == stratum) {
			v[i] = vals[i]
		}
		if math.IsNaN(v[i]) {
			c.missing = append(c.missing, int32(i))
		}
	}
	c.order, c.val = sortedOrder(v)
	return c
}

// stats fills out[j] with statistic sts[j] of the multiset in which each
// value appears as often as its request's weight (total: the sum of all
// weights); NaN when no weighted request has a value. Quantiles are type 7,
// as Quantile computes them on the expanded multiset.
//
// One ascending pass adds up the mean and finds the quantiles up to the
// median; the upper quantiles are found walking down from the top, which
// is short. The passes test one predictable condition per value.
func (c *bootCol) stats(w []int32, total int, sts []statDef, out []float64) {
	m := total
	for _, i := range c.missing {
		m -= int(w[i])
	}
	if m <= 0 {
		for j := range out {
			out[j] = math.NaN()
		}
		return
	}
	var p quantilePlan
	p.plan(sts, m)
	var sum float64
	cum, next, t := 0, math.MaxInt, 0
	if p.nu > 0 {
		next = p.up[0].pos
	}
	for k, i := range c.order {
		n := int(w[i])
		sum += float64(n) * c.val[k]
		cum += n
		if cum > next {
			for t < p.nu && p.up[t].pos < cum {
				p.set(p.up[t], c.val[k])
				t++
			}
			next = math.MaxInt
			if t < p.nu {
				next = p.up[t].pos
			}
		}
	}
	if p.nd > 0 {
		cum, t = 0, 0
		for k := len(c.order) - 1; k >= 0 && t < p.nd; k-- {
			cum += int(w[c.order[k]])
			for t < p.nd && p.down[t].pos < cum {
				p.set(p.down[t], c.val[k])
				t++
			}
		}
	}
	for j, st := range sts {
		switch {
		case st.q < 0:
			out[j] = sum / float64(m)
		case p.frac[j] == 0:
			out[j] = p.lo[j]
		default:
			out[j] = p.lo[j] + p.frac[j]*(p.hi[j]-p.lo[j])
		}
	}
}

// A quantilePlan is where stats finds each quantile of a multiset of m
// values: each needs the values at ascending positions l and l+1 (l+1
// only when its fraction is not 0); up lists them for the quantiles up to
// the median, down (counted from the top) for the others, each sorted by
// position. lo and hi receive the two values.
type quantilePlan struct {
	lo, hi, frac [4]float64
	up, down     [8]quantileTarget
	nu, nd       int
}

// A quantileTarget is one position stats reads for statistic j (hi: the
// upper of its two values).
type quantileTarget struct {
	pos, j int
	hi     bool
}

// plan places the quantiles of sts in a multiset of m values.
func (p *quantilePlan) plan(sts []statDef, m int) {
	for j, st := range sts {
		if st.q < 0 {
			continue
		}
		h := st.q * float64(m-1)
		l := int(math.Floor(h))
		p.frac[j] = h - float64(l)
		if l >= m-1 {
			l, p.frac[j] = m-1, 0
		}
		if st.q <= 0.5 {
			insertTarget(&p.up, &p.nu, quantileTarget{l, j, false})
			if p.frac[j] > 0 {
				insertTarget(&p.up, &p.nu, quantileTarget{l + 1, j, true})
			}
		} else {
			insertTarget(&p.down, &p.nd, quantileTarget{m - 1 - l, j, false})
			if p.frac[j] > 0 {
				insertTarget(&p.down, &p.nd, quantileTarget{m - 2 - l, j, true})
			}
		}
	}
}

// insertTarget adds t to the n targets of ts, kept sorted by position.
func insertTarget(ts *[8]quantileTarget, n *int, t quantileTarget) {
	k := *n
	for k > 0 && ts[k-1].pos > t.pos {
		ts[k] = ts[k-1]
		k--
	}
	ts[k] = t
	*n++
}

// set gives target t its value v.
func (p *quantilePlan) set(t quantileTarget, v float64) {
	if t.hi {
		p.hi[t.j] = v
	} else {
		p.lo[t.j] = v
	}
}

// bootRun is a plan prepared for resampling.
type bootRun struct {
	plan      *bootPlan
	seed      uint64
	base, cur []*bootCol  // per column: a (metric, stratum) wanted
	sts       [][]statDef // per column: the statistics wanted
	root      []int       // per metric: the first metric with identical values
	colIndex  []int       // per want: its column
	statIndex []int       // per want: its statistic's index in sts[its column]
	// Interleaved runs: each request's block as an index into the blocks
	// both sides share (-1 for others), and their number.
	baseBlk, curBlk []int32
	blocks          int
}

func prepareBoot(p *bootPlan, seed uint64) *bootRun {
	br := &bootRun{plan: p, seed: seed ^ hash(p.r.Endpoint+"\x00"+p.r.Scenario)}
	// Metrics whose values are identical on both sides (ttft, ttfc and
	// perceived often are) are resampled once.
	br.root = make([]int, len(vocab.PerRequest))
	for mi, m := range vocab.PerRequest {
		br.root[mi] = mi
		for mj := range mi {
			if br.root[mj] == mj && sameValues(p.r.Base.Values[m], p.r.Base.Values[vocab.PerRequest[mj]]) &&
				sameValues(p.r.Head.Values[m], p.r.Head.Values[vocab.PerRequest[mj]]) {
				br.root[mi] = mj
				break
			}
		}
	}
	cols := map[[2]int]int{} // (root metric, stratum): its column
	for _, w := range p.wants {
		key := [2]int{br.root[w.metric], w.stratum}
		ci, ok := cols[key]
		if !ok {
			ci = len(br.base)
			cols[key] = ci
			m := vocab.PerRequest[key[0]]
			br.base = append(br.base, newBootCol(p.r.Base, m, w.stratum))
			br.cur = append(br.cur, newBootCol(p.r.Head, m, w.stratum))
			br.sts = append(br.sts, nil)
		}
		j := slices.Index(br.sts[ci], w.st)
		if j < 0 {
			j = len(br.sts[ci])
			br.sts[ci] = append(br.sts[ci], w.st)
		}
		br.colIndex = append(br.colIndex, ci)
		br.statIndex = append(br.statIndex, j)
	}
	if p.blocked {
		// Blocks with a successful request on both sides.
		onBase := map[int]bool{}
		for i, b := range p.r.Base.Block {
			onBase[b] = onBase[b] || p.r.Base.OK[i]
		}
		index := map[int]int32{}
		var keys []int
		for i, b := range p.r.Head.Block {
			if _, seen := index[b]; !seen && onBase[b] && p.r.Head.OK[i] {
				index[b] = 0
				keys = append(keys, b)
			}
		}
		if len(keys) >= 2 {
			sort.Ints(keys)
			for k, b := range keys {
				index[b] = int32(k)
			}
			blk := func(blocks []int) []int32 {
				out := make([]int32, len(blocks))
				for i, b := range blocks {
					out[i] = -1
					if k, ok := index[b]; ok {
						out[i] = k
					}
				}
				return out
			}
			br.baseBlk, br.curBlk, br.blocks = blk(p.r.Base.Block), blk(p.r.Head.Block), len(keys)
		}
	}
	return br
}

// resample draws resamples [from, to) of the run into draws[want][b]
// (NaN when the baseline's statistic is not positive).
func (br *bootRun) resample(from, to int, draws [][]float64) {
	// Its own stream: the permutations of the same run use another.
	rng := rand.New(rand.NewPCG(br.seed^0xb5ad4eceda1ce2a9, (uint64(from)+1)*0x9e3779b97f4a7c15))
	wb, wc := make([]int32, br.plan.r.Base.N()), make([]int32, br.plan.r.Head.N())
	var counts []int32
	if br.blocks > 0 {
		counts = make([]int32, br.blocks)
	}
	statB, statC := make([][]float64, len(br.sts)), make([][]float64, len(br.sts))
	for mi, sts := range br.sts {
		statB[mi], statC[mi] = make([]float64, len(sts)), make([]float64, len(sts))
	}
	for b := from; b < to; b++ {
		var tb, tc int
		if counts != nil {
			clear(counts)
			for range br.blocks {
				counts[rng.IntN(br.blocks)]++
			}
			tb, tc = blockWeights(wb, br.baseBlk, counts), blockWeights(wc, br.curBlk, counts)
		} else {
			tb, tc = drawCounts(wb, rng), drawCounts(wc, rng)
		}
		for mi, sts := range br.sts {
			if len(sts) > 0 {
				br.base[mi].stats(wb, tb, sts, statB[mi])
				br.cur[mi].stats(wc, tc, sts, statC[mi])
			}
		}
		for wi := range br.plan.wants {
			ci, j := br.colIndex[wi], br.statIndex[wi]
			qb, qc := statB[ci][j], statC[ci][j]
			draws[wi][b] = math.NaN()
			if qb > 0 {
				draws[wi][b] = (qc/qb - 1) * 100
			}
		}
	}
}

// drawCounts resamples len(w) requests with replacement as counts per
// request and returns their total.
func drawCounts(w []int32, rng *rand.Rand) int {
	clear(w)
	for range w {
		w[rng.IntN(len(w))]++
	}
	return len(w)
}

// blockWeights gives every request its block's count and returns their
// total.
func blockWeights(w, blk, counts []int32) int {
	t := 0
	for i, k := range blk {
		w[i] = 0
		if k >= 0 {
			w[i] = counts[k]
			t += int(counts[k])
		}
	}
	return t
}

// bootstrapChanges returns, per plan and want, the sorted bootstrap draws
// of the relative change in percent (B resamples, fewer draws when the
// baseline's statistic was not positive). Resamples are drawn in parallel
// chunks, each from its own stream.
func bootstrapChanges(plans []*bootPlan, B int, seed uint64) [][][]float64 {
	runs := make([]*bootRun, len(plans))
	out := make([][][]float64, len(plans))
	for i, p := range plans {
		runs[i] = prepareBoot(p, seed)
		out[i] = make([][]float64, len(p.wants))
		for w := range out[i] {
			out[i][w] = make([]float64, B)
		}
	}
	type job struct{ run, from, to int }
	var jobs []job
	for ri := range runs {
		for from := 0; from < B; from += bootChunk {
			jobs = append(jobs, job{ri, from, min(from+bootChunk, B)})
		}
	}
	InParallel(len(jobs), func(i int) {
		j := jobs[i]
		runs[j.run].resample(j.from, j.to, out[j.run])
	})
	for _, ds := range out {
		for w, d := range ds {
			d = slices.DeleteFunc(d, math.IsNaN)
			sort.Float64s(d)
			ds[w] = d
		}
	}
	return out
}

// intervals sets the change interval (CIPct) of every check in boots.
func intervals(res *Result, boots []bootJob, cfg Config) {
	if cfg.Bootstrap <= 0 || len(boots) == 0 {
		return
	}
	var plans []*bootPlan
	for i, j := range boots {
		if i == 0 || j.runIndex != boots[i-1].runIndex {
			plans = append(plans, &bootPlan{r: j.run, blocked: j.blocked})
		}
		p := plans[len(plans)-1]
		p.wants = append(p.wants, bootWant{metric: slices.Index(vocab.PerRequest, j.metric), st: j.st, stratum: j.stratum})
		p.checks = append(p.checks, j.check)
	}
	draws := bootstrapChanges(plans, cfg.Bootstrap, cfg.Seed)
	for pi, p := range plans {
		for wi, check := range p.checks {
			d := draws[pi][wi]
			res.Checks[check].CIPct = [2]float64{Quantile(d, cfg.ciAlpha/2), Quantile(d, 1-cfg.ciAlpha/2)}
		}
	}
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
