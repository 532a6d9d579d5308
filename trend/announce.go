package trend

import (
	"slices"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// Announced is a change point a record run announced: its series, the
// created_at of its first run of the new level, and the created_at of the
// run whose record announced it.
type Announced struct {
	Endpoint       string       `json:"endpoint"`
	Scenario       string       `json:"scenario"`
	Metric         vocab.Metric `json:"metric"`
	Stat           vocab.Stat   `json:"stat"`
	Fingerprint    string       `json:"fingerprint"`
	MetricsVersion int          `json:"metrics_version"`
	// At is the first run of the new level; NamedAt the run whose record
	// announced it.
	At      time.Time `json:"at"`
	NamedAt time.Time `json:"named_at"`
}

func (n Announced) key() Key {
	return Key{n.Endpoint, n.Scenario, n.Metric, n.Stat, n.Fingerprint, n.MetricsVersion}
}

// Announce decides which change points of a — the analysis of a trend
// whose newest run a record run has just added — that record announces,
// marks them New and returns the announcements the trend keeps. A change
// point is announced once: not when an earlier record announced one of
// the same series within two runs of it (change points move by a run or
// two as runs come in). It is announced only when its segment (between
// its neighbouring change points) also passes Confirm at Alpha divided by
// the number of tested series: one borderline split among the dozens of
// series of a suite is not announced. With quiet (a trend without
// announcements yet: the first record that keeps one) the change points
// already there are taken as announced, and none is new.
// Announcements whose run has left the trend are dropped.
func Announce(a *Analysis, prior []Announced, quiet bool) []Announced {
	m := a.Method.withDefaults()
	tested := 0
	for _, s := range a.Series {
		if s.Need == 0 && len(s.Points) > 0 {
			tested++
		}
	}
	var out []Announced
	for _, n := range prior {
		if len(a.Runs) > 0 && !n.At.Before(a.Runs[0].CreatedAt) {
			out = append(out, n)
		}
	}
	newest := a.Runs[len(a.Runs)-1].CreatedAt
	type candidate struct{ si, ci int }
	var cands []candidate
	for si := range a.Series {
		s := &a.Series[si]
		for ci := range s.ChangePoints {
			if !s.announced(a.Runs, out, s.ChangePoints[ci].Index) {
				cands = append(cands, candidate{si, ci})
			}
		}
	}
	ok := make([]bool, len(cands))
	compare.InParallel(len(cands), func(k int) {
		ok[k] = quiet || a.Series[cands[k].si].confirm(cands[k].ci, m.Alpha/float64(max(1, tested)), m)
	})
	for k, c := range cands {
		if !ok[k] {
			continue
		}
		s := &a.Series[c.si]
		cp := &s.ChangePoints[c.ci]
		cp.New = !quiet
		out = append(out, Announced{Endpoint: s.Endpoint, Scenario: s.Scenario, Metric: s.Metric, Stat: s.Stat,
			Fingerprint: s.Fingerprint, MetricsVersion: s.MetricsVersion, At: cp.CreatedAt, NamedAt: newest})
	}
	return out
}

// announced reports whether an announcement of the series lies within two
// points of index.
func (s *Series) announced(runs []Run, anns []Announced, index int) bool {
	for _, n := range anns {
		if n.key() != s.Key {
			continue
		}
		// The first point at or after the announced run.
		j, _ := slices.BinarySearchFunc(s.Points, n.At, func(p Point, t time.Time) int { return runs[p.Run].CreatedAt.Compare(t) })
		if abs(j-index) <= 2 {
			return true
		}
	}
	return false
}

// confirm tests the segment of change point ci (between its neighbours).
func (s *Series) confirm(ci int, alpha float64, m Method) bool {
	lo, hi := 0, len(s.Points)
	if ci > 0 {
		lo = s.ChangePoints[ci-1].Index
	}
	if ci+1 < len(s.ChangePoints) {
		hi = s.ChangePoints[ci+1].Index
	}
	values := make([]float64, len(s.Points))
	for i, p := range s.Points {
		values[i] = p.Value
	}
	return Confirm(values, lo, hi, alpha, s.Key.seed()+uint64(ci), m)
}

// MarkAnnounced marks New the change points that the record of the newest
// run announced (latgate trend on a trend file: what that record said).
func (a *Analysis) MarkAnnounced(anns []Announced) {
	if len(a.Runs) == 0 {
		return
	}
	newest := a.Runs[len(a.Runs)-1].CreatedAt
	var now []Announced
	for _, n := range anns {
		if n.NamedAt.Equal(newest) {
			now = append(now, n)
		}
	}
	for si := range a.Series {
		s := &a.Series[si]
		for ci := range s.ChangePoints {
			s.ChangePoints[ci].New = s.announced(a.Runs, now, s.ChangePoints[ci].Index)
		}
	}
}

func abs(x int) int { return max(x, -x) }
