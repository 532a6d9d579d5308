package report

import (
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
)

// tableShape checks that every row of every Markdown table has as many
// cells as its header: no name breaks a table.
func tableShape(t *testing.T, name, md string) {
	t.Helper()
	header := -1
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		n := strings.Count(line, "|")
		if header < 0 {
			header = n
			continue
		}
		if n != header {
			t.Errorf("%s line %d has %d pipes, its table's header %d: %s", name, i+1, n, header, line)
		}
	}
}

func TestComments(t *testing.T) {
	t.Parallel()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			got := Markdown(rep, MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->", MaxLen: 65536, SummaryURL: "https://example.test/summary"})
			if sc.name != "large" { // large is checked by its invariants only
				golden(t, "comment-"+sc.name+".md", []byte(got))
			}
			if len(got) > 65536 {
				t.Errorf("comment is %d characters, over GitHub's 65,536", len(got))
			}
			tableShape(t, sc.name, got)
			if n := strings.Count(got, "<details open>"); n > 2 {
				t.Errorf("%d sections open, want at most 2", n)
			}
			if strings.Count(got, "requests per side might decide") > 1 {
				t.Error("more than one 'requests needed' note")
			}
			if !strings.Contains(got, "base `0a1b2c3` (2026-11-27 09:00 UTC) → head `fedcba9` (2026-11-30 10:30 UTC), baseline 3 days old") ||
				!strings.Contains(got, "[workflow run](https://github.com/o/r/actions/runs/1)") {
				t.Errorf("no provenance line:\n%s", got[:min(len(got), 800)])
			}
			summary := got[:strings.Index(got, "\n- Latencies")]
			checkComment(t, sc.name, rep, got, summary)
		})
	}
}

// checkComment checks what a case's comment must say.
func checkComment(t *testing.T, name string, rep *Report, got, summary string) {
	t.Helper()
	switch name {
	case "pass":
		if !strings.Contains(got, "### ✅") || strings.Contains(summary, "⚠️") || strings.Contains(summary, "❌") {
			t.Errorf("pass comment:\n%s", summary)
		}
		if !strings.Contains(got, "Queue, prefill, outside ("+NotReported+")") || strings.Contains(got, "| Queue, prefill, outside |") {
			t.Error("the stages the server does not report are not said to be, in the Left out line alone")
		}
	case "engine":
		// The TTFT failed on the queue: the summary says which stage
		// moved, the table shows the server's stages.
		if !regexp.MustCompile(`❌ TTFT.* regression<br><sub>queue \+\d{3} ms, prefill \+\d\.\d ms, outside \+0\.0 ms</sub>`).MatchString(summary) {
			t.Errorf("the summary does not name the stage that moved:\n%s", summary)
		}
		for _, want := range []string{"| Queue |", "| Prefill |", "| Outside |", "| Decode |"} {
			if !strings.Contains(got, want) {
				t.Errorf("engine comment lacks the row %q", want)
			}
		}
		if strings.Contains(got, NotReported) {
			t.Error("a stage the server reports is said not to be")
		}
	case "fail":
		for _, want := range []string{"### ❌", "❌ TTFT", "⛔ TTFT p95 over budget", "❌ error rate up", "(**+"} {
			if !strings.Contains(summary, want) {
				t.Errorf("fail summary lacks %q:\n%s", want, summary)
			}
		}
		// The row with a regression, a budget breach and an error
		// rise shows all three.
		if !regexp.MustCompile(`chat-short @ us-east .*❌ TTFT.*regression<br>❌ error rate up<br>⛔ TTFT p95 over budget`).MatchString(summary) {
			t.Errorf("us-east row does not show every status:\n%s", summary)
		}
		// Each inconclusive check is marked in its cell and named
		// in the note, the rows left out for repeating it too.
		// The failing TTFT p50 is in the summary beside the p95 of its
		// column; an unchanged server's P95 at 60 requests is not tested,
		// never ⚠️; the inconclusive total p95 (significant alone) is.
		for _, want := range []string{"| chat-long @ us-east | 769\u00a0→\u00a0851\u00a0— |", "<br><sub>p50 302\u00a0→\u00a0714 (**+136%**)</sub><br>",
			"<br><sub>p95 832\u00a0→\u00a01004 (+21%)\u00a0⚠️</sub><br>", "significant alone, not once corrected for the suite's 57 checks: chat-short @ eu-west total p95.",
			"— Not tested at 60 requests per side: TTFT p50, TTFT p95, TTFT mean and total p95"} {
			if !strings.Contains(got, want) {
				t.Errorf("fail comment lacks %q", want)
			}
		}
	case "improvement":
		if !strings.Contains(summary, "🟢 TTFT") || strings.Contains(summary, "inconclusive") {
			t.Errorf("improvement not shown as one:\n%s", summary)
		}
	case "few-requests":
		// The values are shown; "—" marks that they were not tested.
		if !regexp.MustCompile(`\| \d+\x{a0}→\x{a0}\d+\x{a0}—<br>`).MatchString(summary) || !strings.Contains(got, "; p95 needs 40 successful requests per side (1 pair has 20).") {
			t.Errorf("untested p95 not shown with its values, — and its note:\n%s", got)
		}
		if strings.Contains(summary, "p95 inconclusive") || strings.Contains(got, "need 40 successful requests per side to test") {
			t.Errorf("an untested statistic shows as a warning:\n%s", got)
		}
	case "hostile":
		rest := strings.Replace(got, "<!-- latgate:comment key=\"k\" -->", "", 1)
		for _, bad := range []string{"<img", "<script", "<b>boom", "](https://evil", "@org", ":tada:", "<!--", "~~", "$$", "www.evil", "`code`", "**bold**"} {
			if strings.Contains(rest, bad) {
				t.Errorf("comment contains unescaped %q", bad)
			}
		}
	case "agent":
		// The answer step's slowdown is on the answer row, not on
		// a "step 3" that mixes answers with fourth sessions'
		// tool calls; the repeated generic rows are named once.
		for _, want := range []string{"| Answer p95 |", "| answer | 60 | 326 → 475", "| 3 | 26 |", "2 HTTP 429 Too Many Requests at step 3",
			"TTFC (visible), the same as Answer;", "| p95 ≤ 900 | — not tested |", "Per token, the same as Inter-token (one token per event); Total, the same as Session", "| Model calls (per session) |"} {
			if !strings.Contains(got, want) {
				t.Errorf("agent comment lacks %q", want)
			}
		}
		// Session is the session's Total: no column of its own (one
		// for its failing p95 repeated the Total column's cell).
		if strings.Contains(summary, "| Session p") || !strings.Contains(summary, "| Total p50 |") {
			t.Error("the summary repeats Total as a Session column")
		}
	case "capacity":
		checkCapacityComment(t, got)
	case "large":
		if len(rep.Result.Checks) < 900 {
			t.Errorf("large case has %d checks, want about 1000", len(rep.Result.Checks))
		}
		if !strings.Contains(got, "not listed") {
			t.Error("large summary does not say which rows it leaves out")
		}
		short := Markdown(rep, MarkdownOptions{MaxLen: 20000})
		if len(short) > 20000 || !strings.Contains(short, "left out to fit") {
			t.Errorf("a 20,000-character limit: len %d, says what is dropped: %v", len(short), strings.Contains(short, "left out to fit"))
		}
	}
}

func TestHTML(t *testing.T) {
	t.Parallel()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			var b strings.Builder
			if err := HTML(&b, rep); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if sc.name == "fail" || sc.name == "agent" || sc.name == "capacity" {
				golden(t, "report-"+sc.name+".html", []byte(got))
			}
			priced, gpus := 0, 0 // a search with a price draws its cost–load curve too, one with a GPU page its GPU curve
			for _, c := range rep.Capacity {
				priced += b2i(c.Cost != nil)
				gpus += b2i(c.hasGPU())
			}
			if n := strings.Count(got, "<g class=\"curve\""); n != 3*len(rep.Capacity)+priced+gpus {
				t.Errorf("%d latency–load charts, want 3 for each of %d capacity searches, a cost–load curve for each of %d with a price and a GPU curve for each of %d with a GPU page", n, len(rep.Capacity), priced, gpus)
			}
			if n := strings.Count(got, "<g class=\"curve\" data-metric=\"cost\""); n != priced {
				t.Errorf("%d cost–load curves, want %d", n, priced)
			}
			if sc.name == "agent" && (!strings.Contains(got, "aria-label=\"session waterfall\"") || !strings.Contains(got, "Answer: share of requests")) {
				t.Error("the agent report lacks its waterfall or its answer distribution")
			}
			for _, bad := range []string{"<script", "<b>boom", "@import", "url(", "<link", "href=\"https://evil"} {
				if strings.Contains(got, bad) {
					t.Errorf("HTML contains %q", bad)
				}
			}
			// Images are the pages' screenshots only, JPEGs embedded: the
			// median and p95 request's two a side, the failures'.
			imgs, jpegs := strings.Count(got, "<img"), strings.Count(got, `<img src="data:image/jpeg;base64,`)
			if imgs != jpegs || (sc.name == "page") != (imgs >= 2*2*2+1) {
				t.Errorf("%d images, %d of them embedded JPEGs", imgs, jpegs)
			}
			// The only link is the workflow run.
			if n := strings.Count(got, "href=\"http"); n != 1 {
				t.Errorf("%d links to the web, want 1 (the workflow run)", n)
			}
			for _, want := range []string{"Content-Security-Policy", "prefers-color-scheme:dark", "share of requests", "Each request in order"} {
				if !strings.Contains(got, want) {
					t.Errorf("HTML lacks %q", want)
				}
			}
		})
	}
}

// TestHiddenRowNeverHidesAFailure: a budget on perceived latency alone,
// with perceived equal to TTFT, still shows as over budget.
func TestHiddenRowNeverHidesAFailure(t *testing.T) {
	t.Parallel()
	th := thresholds()
	th.Budgets = []compare.Budget{{Metric: "perceived", Stat: "p95", Value: 100}}
	rng := rand.New(rand.NewPCG(1, 2))
	base := &results.File{Runs: []results.Run{fixtureRun(rng, "e", "s", 50, 0.3, 0.01, 0, false, false)}}
	cur := &results.File{Runs: []results.Run{fixtureRun(rng, "e", "s", 50, 0.3, 0.01, 0, false, false)}}
	pairs := results.Match(base, cur)
	res := compare.Compare(compare.Pairs(pairs), th)
	if res.Verdict != "fail" {
		t.Fatalf("verdict %s, want fail (perceived p95 over a 100 ms budget)", res.Verdict)
	}
	rep := Build(pairs, res, th)
	got := Markdown(rep, MarkdownOptions{})
	if !strings.Contains(got, "⛔ perceived p95 over budget") || !strings.Contains(got, "| Perceived |") {
		t.Errorf("the failing perceived check is hidden:\n%s", got)
	}
}

// TestProvenanceLine: a side without a commit shows its time alone (no
// "?"), and a baseline recorded after the current run is called out.
func TestProvenanceLine(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		p    Provenance
		want string
	}{
		{"no commits", Provenance{BaselineCreated: t0, HeadCreated: t0.Add(time.Hour)}, "base (2026-11-30 08:00 UTC) → head (2026-11-30 09:00 UTC), baseline 1 hour old"},
		{"future baseline", Provenance{BaseSHA: "0a1b2c3d4e", BaselineCreated: t0.Add(time.Hour), HeadCreated: t0}, "base `0a1b2c3` (2026-11-30 09:00 UTC) → head (2026-11-30 08:00 UTC), ⚠️ the baseline was recorded after the current run"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := provenance(&Report{Provenance: tt.p})
			if !strings.Contains(got, tt.want) || strings.Contains(got, "?") {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestHTMLSummaryMatchesMarkdown: the HTML summary has the columns and
// marks of the comment's: Perceived p95 when it differs from TTFT, and ⚙️
// on a scenario whose configuration changed (its legend says so).
func TestHTMLSummaryMatchesMarkdown(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[0])
	rep.Scenarios[0].Changed = []string{"max_tokens 64 → 128"}
	for i := range rep.Scenarios[0].Rows {
		if rep.Scenarios[0].Rows[i].Stage == "Perceived" {
			rep.Scenarios[0].Rows[i].SameAs = ""
			rep.Scenarios[0].Rows[i].CurP95 += 50 // differs from TTFT's as shown
		}
	}
	md := Markdown(rep, MarkdownOptions{})
	var b strings.Builder
	if err := HTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(md, "| Perceived p95 |") || !strings.Contains(got, "<th>Perceived p95</th>") {
		t.Errorf("Perceived p95 column: Markdown %v, HTML %v; want both", strings.Contains(md, "| Perceived p95 |"), strings.Contains(got, "<th>Perceived p95</th>"))
	}
	if mark := html.EscapeString(rep.Scenarios[0].Scenario) + " ⚙️</a>"; !strings.Contains(got, mark) {
		t.Errorf("the HTML summary lacks %q", mark)
	}
}

// TestBidiControlsShown: a right-to-left override in a name from a config
// or a server cannot reorder what a reader of the comment or the page sees.
func TestBidiControlsShown(t *testing.T) {
	t.Parallel()
	name := "chat\u202egnp.exe"
	for _, got := range []string{md(name), esc(name)} {
		if strings.ContainsRune(got, '\u202e') || !strings.Contains(got, "chat\ufffdgnp.exe") {
			t.Errorf("%q keeps the override", got)
		}
	}
}

// checkCapacityComment: each capacity search is one row of the capacity
// table, in words: the capacity with its interval, the base's and the
// change, why the load above fails, the goodput and the status; a search
// stopped at saturation and one cut by its cap say so, the cut one never as
// a pass (no change, no goodput, no ✅); what a results file said is
// escaped.
func checkCapacityComment(t *testing.T, got string) {
	t.Helper()
	rows, costs := map[string]string{}, map[string]string{} // a search's row, then its cost's when it gives a price
	for _, line := range strings.Split(got, "\n") {
		for _, name := range []string{"| chat-capacity @ gpu-pool |", "| chat-rate @ gpu-pool |", "| chat-spikes @ gpu-pool |", "| &lt;script&gt;alert(1)&lt;/script&gt; @ &#124; a &#124; b &#124; |"} {
			if _, seen := rows[name]; strings.HasPrefix(line, name) && seen {
				costs[name] = line
			} else if strings.HasPrefix(line, name) {
				rows[name] = line
			}
		}
	}
	checkCostComment(t, costs)
	for name, want := range map[string][]string{
		"| chat-capacity @ gpu-pool |": {"| holds 6 users at TTFT p95 ≤ 400 ms (6 to 6); base 8 (8 to 8): -25% |", "| 7 users: saturated, 8.35 requests/s against 8.31 at 6 users: throughput rose less than a quarter of the added load;",
			"| 8.31 requests/s, 266 output tokens/s; base 10.6 requests/s, 338 output tokens/s |", "| ❌ capacity regression<br><sub>lower beyond 10% with confidence</sub> |"},
		"| chat-rate @ gpu-pool |": {"holds 10 requests/s at TTFT p95 ≤ 8000 ms, error rate ≤ 5% (10 to 10)", "| 12 requests/s: saturated, 8.28 requests/s against 8.14 at 10 requests/s", "🆕 no baseline"},
		"| &lt;script&gt;alert(1)&lt;/script&gt; @ &#124; a &#124; b &#124; |": {"| cut before it ended (max&#95;requests &lt;b&gt;150&lt;/b&gt; &#124; &#96;x&#96; reached): never a pass; 2 users within the SLO so far; base 4 (4 to 4) |",
			"| – (cut); base", "| ⚠️ cut: never a pass<br><sub>a search was cut, never a pass</sub> |", "base 5 users: 15 of 60 requests failed"},
		// Within the SLO on its estimates: never "holds no load".
		"| chat-spikes @ gpu-pool |": {"| 8 users at TTFT p95 ≤ 800 ms on its estimates, not shown with confidence (at most 8); base 8 on its estimates (at most 8): +0.0% |", "| ✅ ok"},
	} {
		row, ok := rows[name]
		if !ok {
			t.Errorf("no capacity row %s in:\n%s", name, got)
			continue
		}
		for _, w := range want {
			if !strings.Contains(row, w) {
				t.Errorf("capacity row lacks %q:\n%s", w, row)
			}
		}
	}
	if cut := rows["| &lt;script&gt;alert(1)&lt;/script&gt; @ &#124; a &#124; b &#124; |"]; strings.Contains(cut, "✅") || strings.Contains(cut, "%:") {
		t.Errorf("the cut search reads as a pass or a change: %s", cut)
	}
	if !strings.HasPrefix(got, "<!-- latgate:comment key=\"k\" -->\n### ❌") ||
		!strings.Contains(got, "**fail: 1 capacity regression, 1 cost regression, 1 search cut in 4 capacity searches; worst: chat-capacity @ gpu-pool holds 6 users") {
		t.Errorf("the comment's heading and headline:\n%.600s", got)
	}
	if n := strings.Count(got, "<details><summary>Capacity levels of"); n != 4 {
		t.Errorf("%d sections of capacity levels, want 4", n)
	}
}

// TestNotesOnce: the comment and the HTML report say each warning and
// plan fact once, and show at most maxShownNotes notes outside their
// collapsed notes, the plan among those collapsed; a report of capacity
// searches alone too.
func TestNotesOnce(t *testing.T) {
	t.Parallel()
	warns := []string{"us-east / chat: the stream came in one burst <b>buffered</b> & late",
		"us-east / chat: block numbers missing on one side or not one per request; compared as unpaired runs",
		"eu-west / chat: the results file's confirmation runs were ignored"}
	plan := "adaptive sampling: each scenario was compared on its own at alpha 0.01"
	for _, name := range []string{"fail", "capacity", "capacity alone"} {
		t.Run(name, func(t *testing.T) {
			sc := suiteCases[slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == strings.Fields(name)[0] })]
			rep := buildCase(t, sc)
			if name == "capacity alone" {
				rep.Scenarios, rep.Result.Checks, rep.Tested = nil, nil, 0
			}
			rep.Warnings, rep.Plan = warns, []string{plan}
			var b strings.Builder
			if err := HTML(&b, rep); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			comment := Markdown(rep, MarkdownOptions{MaxLen: 65536})
			for _, w := range append(warns, plan) {
				if n := strings.Count(page, esc(w)); n != 1 {
					t.Errorf("the HTML report says %q %d times", w, n)
				}
				if n := strings.Count(comment, md(w)); n != 1 {
					t.Errorf("the comment says %q %d times", w, n)
				}
			}
			// The notes a reader sees first: the list before the
			// collapsed notes, which hold the plan.
			notes := regexp.MustCompile(`(?s)<ul class="sub">((?:<li>.*?</li>)*)</ul>\n<details class="sub"><summary>Notes: how this was measured and decided</summary>\n<ul class="sub">(.*?)</ul>`).FindStringSubmatch(page)
			if notes == nil {
				t.Fatalf("the HTML report has no collapsed notes after its notes:\n%s", page[strings.Index(page, "<body>"):][:1000])
			}
			if n := strings.Count(notes[1], "<li>"); n < 1 || n > maxShownNotes {
				t.Errorf("the HTML report shows %d notes, want 1 to %d", n, maxShownNotes)
			}
			if !strings.Contains(notes[2], esc(plan)) || !strings.Contains(notes[1]+notes[2], esc(warns[2])) {
				t.Errorf("the collapsed notes lack the plan or a warning:\n%s", notes[2])
			}
			// The comment's: the list just before its collapsed notes.
			blocks := strings.Split(strings.TrimSpace(comment[:strings.Index(comment, "<details><summary>Notes")]), "\n\n")
			if n := strings.Count("\n"+blocks[len(blocks)-1], "\n- "); n < 1 || n > maxShownNotes {
				t.Errorf("the comment shows %d notes, want 1 to %d", n, maxShownNotes)
			}
		})
	}
}

// checkCostComment: a search with a price has a second row, its cost at
// the SLO: base → head with the change and the mark the statistics gave
// (6 slots of 8 at one price: a regression; a cheaper GPU whose
// capacities are on their estimates: inconclusive), a search alone its
// cost at the capacity; a search without a price has none.
func checkCostComment(t *testing.T, costs map[string]string) {
	t.Helper()
	for name, want := range map[string][]string{
		"| chat-capacity @ gpu-pool |": {"| cost per 1M tokens at TTFT p95 ≤ 400 ms: $1.645 → $2.088, +27%: ❌ |", "| ❌ cost regression<br><sub>higher beyond 10% with confidence</sub> |"},
		"| chat-rate @ gpu-pool |":     {"| $1.279 per 1M output tokens at the capacity (10 requests/s, $1.20/h) |", "🆕 no baseline"},
		"| chat-spikes @ gpu-pool |":   {"| cost per 1M tokens at TTFT p95 ≤ 800 ms: $3.829 → $3.106, -19%: ❔ |", "| ❔ inconclusive<br><sub>a change beyond 10% without confidence</sub> |"},
	} {
		for _, w := range want {
			if !strings.Contains(costs[name], w) {
				t.Errorf("cost row of %s lacks %q: %q", name, w, costs[name])
			}
		}
	}
	if c, ok := costs["| &lt;script&gt;alert(1)&lt;/script&gt; @ &#124; a &#124; b &#124; |"]; ok {
		t.Errorf("a search without a price has a cost row: %s", c)
	}
}
