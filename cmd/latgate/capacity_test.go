package main

import (
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
