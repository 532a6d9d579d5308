package main

import (
	"os"
	"regexp"
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

// readmeEngine is a server for the README's capacity example: slots
// slots with fixed delays, a first token after 400 ms plus 20 ms for each
// other request in the batch (8 users: 540 ms), then 47 gaps of 12 ms; a
// user beyond the slots waits for a whole answer.
func readmeEngine(t *testing.T, slots int, seed uint64) string {
	t.Helper()
	p := sim.Profile{Name: "engine", TTFT: sim.Fixed(400 * time.Millisecond), ITL: sim.Fixed(12 * time.Millisecond), Tokens: 48,
		Capacity: sim.Capacity{Slots: slots, PrefillPerRequest: 20 * time.Millisecond}}
	srv := clocktest.NewServer(t, sim.New(p, seed))
	onLoopback(t, srv.Client())
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestREADMECapacity: the README's capacity example, as written, with an
// endpoint: latgate validate finds it valid for run and ab alike (no
// warning), latgate ab runs it against a server of 8 slots and one of 6
// and says the row the README quotes, a capacity regression; with
// requests_per_level: 40 it is valid and runs too.
func TestREADMECapacity(t *testing.T) {
	block := readmeBlock(t, "yaml", "capacity: {vary: concurrency")
	quoted := regexp.MustCompile(`one row — "([^"]+)"`).FindStringSubmatch(strings.Join(strings.Fields(readmeSection(t, "## Capacity")), " "))
	if quoted == nil {
		t.Fatal("the README's capacity section quotes no row")
	}
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		base, head := readmeEngine(t, 8, 1), readmeEngine(t, 6, 2)
		tr.subs = append(tr.subs, base, "127.0.0.1:8080", head, "127.0.0.1:8081")
		writeFile(t, "latgate.yaml", "endpoints:\n  - {name: local, base_url: http://"+base+"/v1, model: engine}\n"+block)
		tr.note("the README's example with an endpoint: latgate sim serves 8 slots at :8080, the head 6 at :8081")
		if r := tr.run("validate"); r.code != 0 || r.stderr != "" {
			t.Errorf("validate: exit %d, %q", r.code, r.stderr)
		}
		r := tr.run("ab", "--base-config", "latgate.yaml", "--head-url", "local=http://"+head+"/v1")
		if r.code != 1 || !strings.Contains(r.stdout, "chat-capacity @ local "+quoted[1]+", a capacity regression") {
			t.Errorf("ab: exit %d, want 1 with the README's row %q:\n%s", r.code, quoted[1], r.stdout)
		}
		tr.note("requests_per_level: 40")
		editFile(t, "latgate.yaml", "requests_per_level: 60", "requests_per_level: 40")
		if r := tr.run("validate"); r.code != 0 || r.stderr != "" {
			t.Errorf("validate at 40 a level: exit %d, %q", r.code, r.stderr)
		}
		if r := tr.run("run"); r.code != 0 || !strings.Contains(r.stderr, "latgate: capacity of chat-capacity @ local: holds 8 users at TTFT p95 ≤ 800 ms (8 to 8)") {
			t.Errorf("run at 40 a level: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	tr.check("readme-capacity.txt")
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
