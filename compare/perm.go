package compare

import (
	"math"
	"math/rand/v2"
	"sort"
)

// unit is one request as a whole record, so permutations keep the
// correlation between a request's metrics.
type unit struct {
	ok   bool
	good bool      // succeeded and met the goodput SLO
	v    []float64 // per metric index, NaN if missing
}

type testKind int

const (
	kindRank    testKind = iota // p50: difference of mean ranks
	kindTail                    // p95, p99: exceedance of the baseline's quantile
	kindMean                    // mean: exceedance of the baseline's mean
	kindErrors                  // errors: difference of failure rates
	kindGoodput                 // goodput: difference of the shares missing the SLO
)

// testDef is one one-sided test of a check: dir +1 tests "worse by more
// than the tolerance", dir -1 "better by more than the tolerance".
type testDef struct {
	check  int // index into Result.Checks
	kind   testKind
	metric int // index into Metrics; -1 for errors
	q      float64
	dir    int
}

// runTests holds a run's data twice, with the current sample scaled for
// each direction's minimum-effect null hypothesis, and its tests.
type runTests struct {
	worse, better *runData
	tests         []testDef
	// strata are the groups of units whose labels may be exchanged: one
	// group of all units, or one per block of an interleaved run.
	strata [][]int
	seed   uint64 // from the run's identity
	// alias[mi] is the first metric whose column is identical to metric
	// mi's in both scaled copies (ttft, ttfc and perceived often are):
	// their statistics agree under every permutation, so each is computed
	// once.
	alias []int
}

type runData struct {
	units []unit
	nb    int         // units[:nb] are the baseline
	order [][]int     // per metric: units with a value, sorted by value
	val   [][]float64 // per metric: the values in that order
	rank  [][]float64 // per metric: mid-ranks in that order
}

func newRunTests(r Pair, cfg Config, isBlocked bool) *runTests {
	d := &runTests{
		worse: newRunData(r.Base, r.Current, 1/(1+cfg.Tolerance), isBlocked, cfg.Goodput),
		seed:  hash(r.Endpoint + "\x00" + r.Scenario),
	}
	if cfg.Tolerance < 1 {
		d.better = newRunData(r.Base, r.Current, 1/(1-cfg.Tolerance), isBlocked, cfg.Goodput)
	}
	d.alias = make([]int, len(Metrics))
	for mi := range Metrics {
		d.alias[mi] = mi
		for mj := 0; mj < mi; mj++ {
			if d.alias[mj] == mj && sameColumn(d.worse, mi, mj) && (d.better == nil || sameColumn(d.better, mi, mj)) {
				d.alias[mi] = mj
				break
			}
		}
	}
	n := r.Base.N() + r.Current.N()
	if !isBlocked {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		d.strata = [][]int{all}
		return d
	}
	byBlock := map[int][]int{}
	var keys []int
	add := func(blocks []int, offset int) {
		for i, b := range blocks {
			if _, ok := byBlock[b]; !ok {
				keys = append(keys, b)
			}
			byBlock[b] = append(byBlock[b], offset+i)
		}
	}
	add(r.Base.Block, 0)
	add(r.Current.Block, r.Base.N())
	sort.Ints(keys)
	for _, k := range keys {
		if len(byBlock[k]) > 1 {
			d.strata = append(d.strata, byBlock[k])
		}
	}
	return d
}

// alignBlocks divides every unit's values by the median of its block's
// values, per metric.
func alignBlocks(units []unit, block []int) {
	members := map[int][]int{}
	for i, b := range block {
		members[b] = append(members[b], i)
	}
	var vs []float64
	for mi := range Metrics {
		for _, idx := range members {
			vs = vs[:0]
			for _, i := range idx {
				if v := units[i].v[mi]; !math.IsNaN(v) {
					vs = append(vs, v)
				}
			}
			if len(vs) == 0 {
				continue
			}
			sort.Float64s(vs)
			med := Quantile(vs, 0.5)
			if med <= 0 {
				continue
			}
			for _, i := range idx {
				units[i].v[mi] /= med
			}
		}
	}
}

func sameColumn(d *runData, a, b int) bool {
	for _, u := range d.units {
		x, y := u.v[a], u.v[b]
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

// value is test t's statistic for the labelling cur, oriented so that
// larger is more extreme in the test's direction.
func (rt *runTests) value(t testDef, cur []bool) float64 {
	d := rt.worse
	if t.dir < 0 {
		d = rt.better
	}
	return float64(t.dir) * d.statistic(t, cur)
}

// newRunData pools base and current requests, the current values
// multiplied by scale: testing "no difference" on the scaled data tests
// "a difference of exactly the tolerance" on the real data.
//
// For an interleaved run (aligned), every value is then divided by the
// median of its block's values of that metric, both variants together.
// That median is the same whatever the labels inside the block, so the
// within-block permutation test stays exact, and drift between blocks
// (the provider slowing down for a minute, a cold start) no longer widens
// the null distribution: the tests see each request relative to its
// neighbours in time.
func newRunData(base, cur *Sample, scale float64, aligned bool, slos []SLO) *runData {
	d := &runData{nb: base.N()}
	add := func(s *Sample, scale float64) {
		for i := range s.OK {
			u := unit{ok: s.OK[i], good: meets(s, i, slos), v: make([]float64, len(Metrics))}
			for mi, m := range Metrics {
				u.v[mi] = math.NaN()
				if vals := s.Values[m]; i < len(vals) && s.OK[i] {
					u.v[mi] = vals[i] * scale
				}
			}
			d.units = append(d.units, u)
		}
	}
	add(base, 1)
	add(cur, scale)
	if aligned {
		alignBlocks(d.units, append(append([]int(nil), base.Block...), cur.Block...))
	}
	d.order = make([][]int, len(Metrics))
	d.val = make([][]float64, len(Metrics))
	d.rank = make([][]float64, len(Metrics))
	for mi := range Metrics {
		var idx []int
		for i, u := range d.units {
			if !math.IsNaN(u.v[mi]) {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return d.units[idx[a]].v[mi] < d.units[idx[b]].v[mi] })
		d.order[mi] = idx
		val := make([]float64, len(idx))
		for k, i := range idx {
			val[k] = d.units[i].v[mi]
		}
		d.val[mi] = val
		rk := make([]float64, len(idx))
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && val[j+1] == val[i] {
				j++
			}
			mid := float64(i+j)/2 + 1
			for k := i; k <= j; k++ {
				rk[k] = mid
			}
			i = j + 1
		}
		d.rank[mi] = rk
	}
	return d
}

// statistic computes test t for the labelling cur (true = current).
func (d *runData) statistic(t testDef, cur []bool) float64 {
	switch t.kind {
	case kindErrors, kindGoodput:
		var fb, nb, fc, nc float64
		for i, u := range d.units {
			miss := !u.ok
			if t.kind == kindGoodput {
				miss = !u.good
			}
			if cur[i] {
				nc++
				if miss {
					fc++
				}
			} else {
				nb++
				if miss {
					fb++
				}
			}
		}
		return fc/nc - fb/nb
	case kindRank:
		// Mann-Whitney U as the difference of mean ranks, scaled by N.
		var sc, sb, nc, nb float64
		rank := d.rank[t.metric]
		for k, i := range d.order[t.metric] {
			if cur[i] {
				sc += rank[k]
				nc++
			} else {
				sb += rank[k]
				nb++
			}
		}
		if nc == 0 || nb == 0 {
			return 0
		}
		return (sc/nc - sb/nb) / (nc + nb)
	}
	// Exceedance: how much more of the current side than of the baseline
	// side lies above a threshold from the baseline side (its q-quantile,
	// or its mean), recomputed for every permutation from that
	// permutation's baseline group.
	order, val := d.order[t.metric], d.val[t.metric]
	nc := 0
	var sumB float64
	for k, i := range order {
		if cur[i] {
			nc++
		} else {
			sumB += val[k]
		}
	}
	nb := len(order) - nc
	if nc < 2 || nb < 2 {
		return 0
	}
	var tau float64
	if t.kind == kindMean {
		tau = sumB / float64(nb)
	} else {
		tau = groupQuantile(order, val, cur, nb, t.q)
	}
	var ec, eb float64
	// val is sorted: everything above tau is a suffix.
	for k := len(order) - 1; k >= 0 && val[k] > tau; k-- {
		if cur[order[k]] {
			ec++
		} else {
			eb++
		}
	}
	return ec/float64(nc) - eb/float64(nb)
}

// groupQuantile is the type-7 q-quantile of the baseline side (cur[i]
// false, n units) of the pooled order, found by walking it once.
func groupQuantile(order []int, val []float64, cur []bool, n int, q float64) float64 {
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	frac := h - float64(lo)
	if q > 0.5 {
		// Walk from the top: the upper quantiles are near it.
		pos := 0
		var vhi float64
		for k := len(order) - 1; k >= 0; k-- {
			if cur[order[k]] {
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
		if cur[i] {
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

// permute fills perm[ti][b] with test ti's statistic under permutation b.
// The run's random stream comes from its identity, labels are exchanged
// within strata only, and nothing is allocated per permutation.
func (rt *runTests) permute(cfg Config, obs []float64, perm [][]float64) {
	n := len(rt.worse.units)
	labels := make([]bool, n)
	for i := rt.worse.nb; i < n; i++ {
		labels[i] = true
	}
	for ti, t := range rt.tests {
		obs[ti] = rt.value(t, labels)
	}
	// same[ti] is an earlier test that always has test ti's value, or -1.
	same := make([]int, len(rt.tests))
	for ti, t := range rt.tests {
		same[ti] = -1
		for tj, u := range rt.tests[:ti] {
			if t.metric >= 0 && u.metric >= 0 && t.kind == u.kind && t.q == u.q && t.dir == u.dir && rt.alias[t.metric] == rt.alias[u.metric] {
				same[ti] = tj
				break
			}
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, rt.seed))
	shuffled := append([]bool(nil), labels...)
	for b := 0; b < cfg.Permutations; b++ {
		for _, s := range rt.strata {
			for i := len(s) - 1; i > 0; i-- {
				j := rng.IntN(i + 1)
				shuffled[s[i]], shuffled[s[j]] = shuffled[s[j]], shuffled[s[i]]
			}
		}
		for ti, t := range rt.tests {
			if j := same[ti]; j >= 0 {
				perm[ti][b] = perm[j][b]
			} else {
				perm[ti][b] = rt.value(t, shuffled)
			}
		}
	}
}

// westfallYoung fills RawP and PValue of every tested check: single-step
// maxT over all one-sided tests of the suite, each run's request labels
// permuted jointly for all its tests. Runs are permuted in parallel; each
// run's stream depends only on its identity, so the result does not
// depend on the order of runs or on scheduling.
func westfallYoung(res *Result, data []*runTests, cfg Config) {
	var k int
	for _, d := range data {
		k += len(d.tests)
	}
	if k == 0 {
		return
	}
	B := cfg.Permutations
	obs := make([]float64, k)
	perm := make([][]float64, k) // per test: its statistic under each permutation
	first := make([]int, len(data))
	off := 0
	for ri, d := range data {
		first[ri] = off
		for ti := range d.tests {
			perm[off+ti] = make([]float64, B)
		}
		off += len(d.tests)
	}
	inParallel(len(data), func(ri int) {
		f, d := first[ri], data[ri]
		d.permute(cfg, obs[f:f+len(d.tests)], perm[f:f+len(d.tests)])
	})

	// Raw p-values, and each permutation's largest standardized statistic
	// across the family (maxT): each test is standardized by the mean and
	// SD of its own permutation distribution, so an observation far beyond
	// anything the permutations produced gets a small adjusted p-value
	// however fine the permutation grid.
	// One family per direction: the gate fails on regressions only, so
	// false regression claims are held to alpha among the regression
	// tests, and false improvement claims among the improvement tests.
	//
	// Error rates form families of their own: a rise in failed requests is
	// held to alpha among the suite's error-rate checks, never diluted by
	// its many latency checks (0 % → 12.5 % failed at 40 requests would
	// otherwise pass a suite of a few scenarios).
	family := func(t testDef) int {
		if t.kind == kindErrors || t.kind == kindGoodput {
			return 2 * t.dir
		}
		return t.dir
	}
	maxZ := map[int][]float64{}
	dirs := make([]int, 0, k)
	for _, d := range data {
		for _, t := range d.tests {
			f := family(t)
			dirs = append(dirs, f)
			if maxZ[f] == nil {
				maxZ[f] = make([]float64, B)
				for b := range maxZ[f] {
					maxZ[f][b] = math.Inf(-1)
				}
			}
		}
	}
	raw := make([]float64, k)
	zObs := make([]float64, k)
	for ti := range perm {
		col := perm[ti]
		geq := 0
		var mean, sq float64
		for _, v := range col {
			if v >= obs[ti]-1e-12*math.Max(1, math.Abs(obs[ti])) {
				geq++
			}
			mean += v
		}
		mean /= float64(B)
		for _, v := range col {
			sq += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(sq / float64(B))
		raw[ti] = float64(1+geq) / float64(B+1)
		z := func(v float64) float64 {
			if sd == 0 {
				return 0
			}
			return (v - mean) / sd
		}
		zObs[ti] = z(obs[ti])
		if sd == 0 {
			zObs[ti] = math.Inf(-1) // a degenerate test can never be significant
		}
		mz := maxZ[dirs[ti]]
		for b, v := range col {
			mz[b] = math.Max(mz[b], z(v))
		}
	}
	for _, m := range maxZ {
		sort.Float64s(m)
	}
	ti := 0
	tested := map[int]bool{}
	for _, d := range data {
		for _, t := range d.tests {
			c := &res.Checks[t.check]
			tested[t.check] = true
			atLeast := B - sort.SearchFloat64s(maxZ[family(t)], zObs[ti]-1e-12)
			adj := math.Min(1, float64(1+atLeast)/float64(B+1))
			// Keep the direction the point estimate points to.
			if wantWorse := c.worse() || c.Current == c.Baseline; (t.dir > 0) == wantWorse {
				c.RawP, c.PValue = raw[ti], adj
			}
			ti++
		}
	}
	res.Tested = len(tested)
}
