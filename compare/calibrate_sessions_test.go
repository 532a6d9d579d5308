package compare

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

var (
	calSessDesigns = flag.String("session-designs", "stored,ab:0.10,history", "calibration (sessions): designs, each name[:σ] (σ: per-run drift, per-block for ab)")
	calSessConds   = flag.String("session-conditions", "", "calibration (sessions): only conditions containing one of these (comma-separated)")
	calSessEffectN = flag.Int("session-effect-n", 20000, "calibration (sessions): sessions per side behind the table of effects")
)

// sessionCond is a row of the sessions study: what the head changes.
type sessionCond struct {
	name   string
	change func(*sessionModel)
}

var sessionConds = []sessionCond{
	{"unchanged", func(*sessionModel) {}},
	{"answer step +30% (its TTFT and pace)", func(s *sessionModel) { s.answer.scale = 1.3 }},
	{"tool step 1 +30% (its TTFT and pace)", func(s *sessionModel) { s.slowStep, s.slowScale = 1, 1.3 }},
	{"tool step 2 +30% (its TTFT and pace)", func(s *sessionModel) { s.slowStep, s.slowScale = 2, 1.3 }},
	{"tool latency +30% (150 → 195 ms)", func(s *sessionModel) { s.toolScale = 1.3 }},
	{"every step +30%", func(s *sessionModel) { s.tool.scale, s.answer.scale = 1.3, 1.3 }},
	{"a 4th step in 20% of sessions", func(s *sessionModel) { s.extraShare = 0.2 }},
	{"a 4th step in 30% of sessions", func(s *sessionModel) { s.extraShare = 0.3 }},
	{"a 4th step in 50% of sessions", func(s *sessionModel) { s.extraShare = 0.5 }},
}

func selectedSessionConds() []sessionCond {
	if *calSessConds == "" {
		return sessionConds
	}
	var out []sessionCond
	for _, c := range sessionConds {
		for _, f := range strings.Split(*calSessConds, ",") {
			if f = strings.TrimSpace(f); f != "" && strings.Contains(c.name, f) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// sessionDesign is a design of the sessions study and its drift σ (per
// run; per block for ab).
type sessionDesign struct {
	name  string
	sigma float64
}

func sessionDesigns() []sessionDesign {
	var out []sessionDesign
	for _, f := range strings.Split(*calSessDesigns, ",") {
		name, sig, _ := strings.Cut(strings.TrimSpace(f), ":")
		d := sessionDesign{name: name}
		if sig != "" {
			fmt.Sscan(sig, &d.sigma)
		}
		out = append(out, d)
	}
	return out
}

func (d sessionDesign) String() string {
	switch {
	case d.sigma == 0:
		return d.name
	case d.name == "ab":
		return fmt.Sprintf("ab, σ %.2f per block", d.sigma)
	}
	return fmt.Sprintf("%s, σ %.2f per run", d.name, d.sigma)
}

// draws is one scenario's way of drawing n requests (sessions), request
// i's model calls multiplied by f(i).
type draws func(n int, rng *rand.Rand, f func(int) float64) *Sample

func chatDraws(n int, rng *rand.Rand, f func(int) float64) *Sample {
	return realistic().sampleWith(n, rng, f)
}

// constant is a drift factor for a whole run (or block).
func constant(k float64) func(int) float64 { return func(int) float64 { return k } }

// sessionSuite simulates one suite: the session scenario "agent", whose
// head is cur, and (with -scenarios 2) an unchanged chat scenario "chat".
func sessionSuite(d sessionDesign, cur sessionModel, n int, seed uint64, c Config) Result {
	rng := rand.New(rand.NewPCG(seed, 0x5e55))
	base := agentSession()
	scen := []struct {
		name       string
		base, head draws
	}{{"agent", base.sample, cur.sample}, {"chat", chatDraws, chatDraws}}[:*calScen]
	drift := func() float64 { return math.Exp(d.sigma * rng.NormFloat64()) }
	switch d.name {
	case "stored":
		var runs []Pair
		for _, sc := range scen {
			runs = append(runs, Pair{Endpoint: "e", Scenario: sc.name, Base: sc.base(n, rng, constant(drift())), Head: sc.head(n, rng, constant(drift()))})
		}
		return Compare(runs, c)
	case "history":
		var series []Series
		for _, sc := range scen {
			s := Series{Endpoint: "e", Scenario: sc.name}
			for range *calHistory {
				s.History = append(s.History, sc.base(n, rng, constant(drift())))
			}
			s.Current = sc.head(n, rng, constant(drift()))
			series = append(series, s)
		}
		r, err := CompareHistory(series, c)
		if err != nil {
			panic(err)
		}
		return r
	case "ab":
		var runs []Pair
		bs := *calBlock
		for _, sc := range scen {
			p := Pair{Endpoint: "e", Scenario: sc.name,
				Base: &Sample{Values: map[vocab.Metric][]float64{}}, Head: &Sample{Values: map[vocab.Metric][]float64{}}}
			for b := 0; b*bs < n; b++ {
				f := constant(drift())
				k := min(bs, n-b*bs)
				appendBlock(p.Base, sc.base(k, rng, f), b)
				appendBlock(p.Head, sc.head(k, rng, f), b)
			}
			runs = append(runs, p)
		}
		return Compare(runs, c)
	}
	panic("unknown design " + d.name)
}

// sessionCell is the outcome of one cell: failing suites, and per metric
// of the session scenario (or "chat" for the other scenario) the suites
// in which one of its checks is a regression.
type sessionCell struct {
	fails  int
	caught map[string]int
}

func runSessionCell(d sessionDesign, cond sessionCond, n int, c Config) sessionCell {
	cur := agentSession()
	cond.change(&cur)
	cell := sessionCell{caught: map[string]int{}}
	var mu sync.Mutex
	parallel(*calReps, func(seed uint64) {
		r := sessionSuite(d, cur, n, seed+104723*uint64(n), c)
		seen := map[string]bool{}
		for _, ch := range r.Checks {
			if ch.Status != vocab.Regression {
				continue
			}
			key := string(ch.Metric)
			if ch.Scenario != "agent" {
				key = "chat (unchanged)"
			}
			seen[key] = true
		}
		mu.Lock()
		defer mu.Unlock()
		if r.Verdict == "fail" {
			cell.fails++
		}
		for k := range seen {
			cell.caught[k]++
		}
	})
	return cell
}

// caughtBy lists the metrics with a regression, the share of suites in
// which each had one, metrics of equal share together (ttft and
// first_tool_call, ttfc and answer, total and session take the same values
// in this session, itl and tpot too).
func (c sessionCell) caughtBy(reps int) string {
	byCount := map[int][]string{}
	var counts []int
	for k, v := range c.caught {
		if byCount[v] == nil {
			counts = append(counts, v)
		}
		byCount[v] = append(byCount[v], k)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	var parts []string
	for _, v := range counts {
		ks := byCount[v]
		sort.Slice(ks, func(i, j int) bool { return metricOrder(ks[i]) < metricOrder(ks[j]) })
		parts = append(parts, fmt.Sprintf("%s %.1f%%", strings.Join(ks, ", "), 100*float64(v)/float64(reps)))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, "; ")
}

func metricOrder(k string) int {
	for i, m := range vocab.PerRequest {
		if string(m) == k {
			return i
		}
	}
	return len(vocab.PerRequest)
}

// effectChecks are the statistics the table of effects shows.
var effectChecks = []struct {
	metric vocab.Metric
	st     statDef
}{
	{vocab.Session, statDefs[0]}, {vocab.Session, statDefs[1]}, {vocab.Answer, statDefs[0]}, {vocab.Answer, statDefs[1]},
	{vocab.Answer, statDefs[3]}, {vocab.TTFT, statDefs[0]}, {vocab.ITL, statDefs[0]}, {vocab.Perceived, statDefs[0]}, {vocab.StepCount, statDefs[3]},
}

// sessionEffects writes what each condition does to the session's
// statistics: their change on large samples, against the tolerance.
func sessionEffects(b *strings.Builder) {
	fmt.Fprintf(b, "| condition |")
	for _, e := range effectChecks {
		fmt.Fprintf(b, " %s %s |", e.metric, e.st.name)
	}
	fmt.Fprintf(b, "\n|---|%s\n", strings.Repeat("---:|", len(effectChecks)))
	n := *calSessEffectN
	base := agentSession().sample(n, rand.New(rand.NewPCG(1, 0xef)), nil)
	for _, cond := range selectedSessionConds() {
		cur := agentSession()
		cond.change(&cur)
		head := cur.sample(n, rand.New(rand.NewPCG(2, 0xef)), nil)
		fmt.Fprintf(b, "| %s |", cond.name)
		for _, e := range effectChecks {
			fmt.Fprintf(b, " %+.1f%% |", pct(e.st.of(okValues(head, e.metric)), e.st.of(okValues(base, e.metric))))
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintf(b, "\nChanges of the statistics between two samples of %d sessions (the unchanged row is their sampling noise); the tolerance is 10%%.\n\n", n)
}

// sessionStudy: false alarms and detection of the session scenario's
// changes under each design, and the checks that catch them.
func sessionStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	sessionEffects(b)
	sizes := ints(*calDriftN)
	fmt.Fprintf(b, "| design | condition |")
	for _, n := range sizes {
		fmt.Fprintf(b, " n = %d: fails | regressions, by metric (share of suites) |", n)
	}
	fmt.Fprintf(b, "\n|---|---|%s\n", strings.Repeat("---:|---|", len(sizes)))
	for _, d := range sessionDesigns() {
		for _, cond := range selectedSessionConds() {
			line := fmt.Sprintf("| %s | %s |", d, cond.name)
			for _, n := range sizes {
				cell := runSessionCell(d, cond, n, c)
				line += fmt.Sprintf(" %.1f%% | %s |", 100*float64(cell.fails)/float64(*calReps), cell.caughtBy(*calReps))
			}
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(b, "\n%d scenario(s) per suite (the session scenario changes; the other is the chat scenario of the other studies, unchanged), %d suites per cell, %d permutations, alpha %.2f, tolerance 10%%, min_delta 25ms; history of %d runs; A/B blocks of %d + %d sessions.\n\n",
		*calScen, *calReps, *calPerms, c.Alpha, *calHistory, *calBlock, *calBlock)
}

// TestCalibrationSessions is the sessions part of the calibration study
// (-study sessions; make calibrate CAL_STUDY=sessions). With
// -calibrate-out FILE its tables go to FILE.sessions.md.
func TestCalibrationSessions(t *testing.T) {
	if !*calibrate || !studies()["sessions"] {
		t.Skip("run with -calibrate -study sessions (make calibrate CAL_STUDY=sessions)")
	}
	var b strings.Builder
	start := time.Now()
	sessionStudy(t, &b)
	fmt.Fprintf(&b, "(-study sessions -reps %d -perms %d; %s on %d cores.)\n", *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	if *calOut != "" {
		if err := os.WriteFile(*calOut+".sessions.md", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
