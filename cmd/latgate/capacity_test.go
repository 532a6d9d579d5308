package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// capacitySuite is a suite of one capacity search on the simulator's
// engine profile (8 slots; a first token after 60 ms, 8 ms more for each
// other request in the batch, then 47 gaps of 12 ms): the most users at
// once whose TTFT p95 stays within 150 ms.
const capacitySuite = `endpoints:
  - {name: local, base_url: http://127.0.0.1:8080/v1, model: sim}
scenarios:
  - name: chat-capacity
    prompt: Summarise our refund policy in two sentences.
    max_tokens: 48
    capacity:
      vary: concurrency
      from: 1
      to: 64
      requests_per_level: 60
      slo: {ttft: {p95: 150}}
limits: {max_requests: 5000}
`

// TestNewcomerCapacity: a pull request that serves the model on 6 slots
// instead of 8 (a smaller batch, max_num_seqs or OLLAMA_NUM_PARALLEL) is
// a capacity regression in latgate ab, said in the terminal and in the
// comment; the same server twice is not.
func TestNewcomerCapacity(t *testing.T) {
	tr := newcomer(t)
	synctest.Test(t, func(t *testing.T) {
		tr.t = t
		engine := func(slots int, seed uint64) string {
			p, err := sim.Named("engine")
			if err != nil {
				t.Fatal(err)
			}
			// Fixed delays: the figures are the same whatever order the
			// users' requests arrive in at one instant.
			p.Capacity.Slots, p.TTFT, p.ITL = slots, sim.Fixed(60*time.Millisecond), sim.Fixed(12*time.Millisecond)
			srv := clocktest.NewServer(t, sim.New(p, seed))
			onLoopback(t, srv.Client())
			return strings.TrimPrefix(srv.URL, "http://")
		}
		base, head := engine(8, 1), engine(6, 2)
		tr.subs = append(tr.subs, base, "127.0.0.1:8080", head, "127.0.0.1:8081")
		writeFile(t, "latgate.yaml", strings.ReplaceAll(capacitySuite, "127.0.0.1:8080", base))
		tr.note("latgate sim --profile engine serves 8 slots at :8080; the head, with --slots 6, at :8081")
		tr.run("validate")
		tr.run("ab", "--base-config", "latgate.yaml", "--head-url", "local=http://"+head+"/v1")
		tr.run("compare", "ab.json", "--format", "markdown")
		tr.run("ab", "--base-config", "latgate.yaml", "-o", "aa.json")
	})
	tr.t = t
	tr.check("capacity.txt")
}

// readmeEngine is a server for the README's capacity example: the
// simulator's engine profile as latgate sim --profile engine serves it
// (a first token after a log-normal 60 ms plus 8 ms for each other request
// in the batch, then 47 log-normal gaps of 12 ms), on slots slots as
// --slots says (the profile's own: 8).
func readmeEngine(t *testing.T, slots int, seed uint64) string {
	t.Helper()
	p, err := sim.Named("engine")
	if err != nil {
		t.Fatal(err)
	}
	p.Capacity.Slots = slots
	srv := clocktest.NewServer(t, sim.New(p, seed))
	onLoopback(t, srv.Client())
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestREADMECapacity: the README's capacity example, as written, with an
// endpoint, against the simulator's engine profile as latgate sim serves
// it, on virtual time: latgate validate finds it valid for run and ab
// alike (no warning) and says the most requests the README's comment
// says; latgate ab of 8 slots against 6 prints the lines the README
// quotes, a capacity regression, and its levels say what the README's
// words say of them (every level up to 10 users within the SLO on both
// sides, the TTFT p50 at 10 users under 200 ms on the base and over 700
// ms on the head); the same server twice passes as the README says; with
// requests_per_level: 40 it is valid and runs too. (The simulator draws
// its log-normal delays in the order requests arrive, which the scheduler
// decides among users sent at one instant: the levels' figures move by a
// few ms from run to run, the lines the README quotes do not.)
func TestREADMECapacity(t *testing.T) {
	block := readmeBlock(t, "yaml", "capacity: {vary: concurrency")
	section := readmeSection(t, "## Capacity")
	printed := docBlock(t, "README.md", "text", "a capacity regression")
	aa := regexp.MustCompile(`The same server on both sides passes: "([^"]+)"`).FindStringSubmatch(strings.Join(strings.Fields(section), " "))
	most := regexp.MustCompile(`a search may send up to (\d+) requests`).FindStringSubmatch(block)
	if aa == nil || most == nil {
		t.Fatal("the README's capacity section quotes no A/A row, or its comment no most requests")
	}
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		base, head := readmeEngine(t, 8, 1), readmeEngine(t, 6, 2)
		writeFile(t, "latgate.yaml", "endpoints:\n  - {name: local, base_url: http://"+base+"/v1, model: engine}\n"+block)
		if r := tr.run("validate"); r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "a run sends up to "+most[1]+" requests") {
			t.Errorf("validate: exit %d, %q, %q", r.code, r.stdout, r.stderr)
		}
		r := tr.run("ab", "--base-config", "latgate.yaml", "--head-url", "local=http://"+head+"/v1")
		for _, line := range strings.Split(strings.TrimSpace(printed), "\n") {
			if r.code != 1 || !strings.Contains(r.stdout, line+"\n") {
				t.Errorf("ab: exit %d, want 1 with the README's line %q:\n%s", r.code, line, r.stdout)
			}
		}
		p95, p50 := levelFigures(t, r.stdout)
		for _, side := range []string{"base", "head"} {
			for users := 1; users <= 10; users++ {
				if v, ok := p95[side][users]; ok && v > 800 {
					t.Errorf("%s at %d users: TTFT p95 %v ms, over the SLO the README says it keeps", side, users, v)
				}
			}
		}
		if p50["base"][10] >= 200 || p50["head"][10] <= 700 {
			t.Errorf("TTFT p50 at 10 users: base %v, head %v ms; the README says under 200 and over 700", p50["base"][10], p50["head"][10])
		}
		if r := tr.run("ab", "--base-config", "latgate.yaml", "-o", "aa.json"); r.code != 0 || !strings.Contains(r.stdout, "chat-capacity @ local "+aa[1]+"\n") {
			t.Errorf("A/A: exit %d, want 0 with the README's row %q:\n%s", r.code, aa[1], r.stdout)
		}
		editFile(t, "latgate.yaml", "requests_per_level: 60", "requests_per_level: 40")
		if r := tr.run("validate"); r.code != 0 || r.stderr != "" {
			t.Errorf("validate at 40 a level: exit %d, %q", r.code, r.stderr)
		}
		if r := tr.run("run"); r.code != 0 || !strings.Contains(r.stderr, "latgate: capacity of chat-capacity @ local: holds 8 users at TTFT p95 ≤ 800 ms (8 to 8)") {
			t.Errorf("run at 40 a level: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Logf("the transcript (on virtual time):\n%s", tr.b.String())
}

// levelFigures are the TTFT p95 and p50 of each side's levels in the
// capacity table ab prints: side, then users, then milliseconds.
func levelFigures(t *testing.T, out string) (p95, p50 map[string]map[int]float64) {
	t.Helper()
	p95, p50 = map[string]map[int]float64{}, map[string]map[int]float64{}
	row := regexp.MustCompile(`(?m)^  (base|head) +(\d+)  .*? {2,}(\d+)( \(\d+ failed\))? +(\d+) / (\d+) +\d+ / \d+ +[\d.]+ +[\d.]+$`)
	for _, m := range row.FindAllStringSubmatch(out, -1) {
		users, _ := strconv.Atoi(m[2])
		a, _ := strconv.ParseFloat(m[5], 64)
		b, _ := strconv.ParseFloat(m[6], 64)
		if p95[m[1]] == nil {
			p95[m[1]], p50[m[1]] = map[int]float64{}, map[int]float64{}
		}
		p50[m[1]][users], p95[m[1]][users] = a, b
	}
	if len(p95["base"]) == 0 || len(p95["head"]) == 0 {
		t.Fatalf("no level table in:\n%s", out)
	}
	return p95, p50
}

// readmeSection is the README's section under heading, to the next one.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n"+heading)
	if !ok {
		t.Fatalf("README.md has no %q", heading)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	return section
}
