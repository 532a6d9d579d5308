package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/trend"
	"github.com/latgate/latgate/vocab"
)

const trendHostile = "<img src=x onerror=alert(1)>|*[x](javascript:alert(1))\x1b[2J"

// trendFixture is 40 runs of main, a day apart, every fourth a scheduled
// run: chat-short steps up by 25% at run 24, summarize speeds up by 20%
// for the last five runs (announced by the newest run), agent's
// configuration changes at run 30, and a scenario with a hostile name
// joins for the last five runs.
func trendFixture() *Trend {
	rng := rand.New(rand.NewPCG(4, 2))
	t0 := time.Date(2026, 9, 1, 3, 0, 0, 0, time.UTC)
	val := func(level float64) *float64 {
		v := math.Round(level*math.Exp(0.03*rng.NormFloat64())*1000) / 1000
		return &v
	}
	scenario := func(name, fp string, ttft float64) trend.Scenario {
		return trend.Scenario{Endpoint: "us-east", Scenario: name, Fingerprint: fp, Requests: 50, Values: []trend.Value{
			{Metric: vocab.TTFT, Stat: vocab.P50, Value: val(ttft), N: 50},
			{Metric: vocab.TTFT, Stat: vocab.P95, Value: val(1.6 * ttft), N: 50},
			{Metric: vocab.Total, Stat: vocab.P50, Value: val(4 * ttft), N: 50},
		}}
	}
	var runs []trend.Run
	for i := range 40 {
		r := trend.Run{CreatedAt: t0.Add(time.Duration(i) * 24 * time.Hour), GitSHA: fmt.Sprintf("%07x%033x", 0x5eed000+i, i), MetricsVersion: 2, Event: "push"}
		if i%4 == 3 {
			r.Event = "schedule"
		}
		chat, sum, agentFP := 400.0, 900.0, "sha256:agent-1"
		if i >= 24 {
			chat = 500
		}
		if i >= 35 {
			sum = 720
		}
		if i >= 30 {
			agentFP = "sha256:agent-2"
		}
		r.Scenarios = []trend.Scenario{scenario("chat-short", "sha256:chat", chat), scenario("summarize", "sha256:sum", sum), scenario("agent", agentFP, 1500)}
		if i >= 35 {
			r.Scenarios = append(r.Scenarios, scenario(trendHostile, "sha256:h", 300))
		}
		runs = append(runs, r)
	}
	prev := trend.Analyze(runs[:35], trend.Method{}) // what the records up to run 35 announced
	known := trend.Announce(&prev, nil, true)
	a := trend.Analyze(runs, trend.Method{})
	trend.Announce(&a, known, false)
	return &Trend{Analysis: a, Repository: "https://github.com/acme/app", Notes: []string{"ignored 1 file(s) that are not latgate results or trend files: notes\x07.txt"}}
}

func TestTrendGolden(t *testing.T) {
	tr := trendFixture()
	if all, fresh := tr.counts(); all < 4 || fresh < 1 {
		t.Fatalf("the fixture has %d change points, %d new: want the step, the speed-up (new) and more", all, fresh)
	}
	var text, js, page bytes.Buffer
	TrendText(&text, tr, false)
	if err := TrendJSON(&js, tr); err != nil {
		t.Fatal(err)
	}
	if err := TrendHTML(&page, tr); err != nil {
		t.Fatal(err)
	}
	golden(t, "trend.txt", text.Bytes())
	golden(t, "trend.md", []byte(TrendMarkdown(tr)))
	golden(t, "trend.json", js.Bytes())
	golden(t, "trend.html", page.Bytes())
}

func TestTrendJSONHoldsTheChangePoints(t *testing.T) {
	tr := trendFixture()
	var b bytes.Buffer
	if err := TrendJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	var got struct {
		ChangePoints []struct {
			Endpoint, Scenario, Metric, Stat, GitSHA string
			Index                                    int
			CreatedAt                                time.Time `json:"created_at"`
			StepPct                                  float64   `json:"step_pct"`
			CIPct                                    []float64 `json:"ci_pct"`
			New                                      bool
		} `json:"change_points"`
		Series []struct {
			Scenario string
			Points   []struct{ Value float64 }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, cp := range got.ChangePoints {
		if cp.Scenario == "chat-short" && cp.Metric == "ttft" && cp.Stat == "p50" {
			found = true
			if cp.Index != 24 || !cp.CreatedAt.Equal(time.Date(2026, 9, 25, 3, 0, 0, 0, time.UTC)) || cp.StepPct < 20 || cp.StepPct > 30 || len(cp.CIPct) != 2 || cp.New {
				t.Errorf("chat-short TTFT p50: %+v", cp)
			}
		}
	}
	if !found || len(got.Series) != 15 {
		t.Errorf("change points %+v, %d series (want 15: 4 scenarios × 3, agent twice)", got.ChangePoints, len(got.Series))
	}
}

func TestTrendEscapesNamesInEveryFormat(t *testing.T) {
	tr := trendFixture()
	var text, page bytes.Buffer
	TrendText(&text, tr, false)
	if err := TrendHTML(&page, tr); err != nil {
		t.Fatal(err)
	}
	md := TrendMarkdown(tr)
	for format, out := range map[string]string{"text": text.String(), "markdown": md, "html": page.String()} {
		bad := map[string][]string{ // a terminal shows markup as text; a page shows a link's text as text
			"text":     {"\x1b", "\x07"},
			"markdown": {"\x1b", "\x07", "<img", "](javascript"},
			"html":     {"\x1b", "\x07", "<img"},
		}[format]
		for _, b := range bad {
			if strings.Contains(out, b) {
				t.Errorf("%s holds %q", format, b)
			}
		}
	}
	// Commits are linked to the repository, and nothing else is.
	for _, u := range strings.Split(page.String(), `href="`)[1:] {
		if !strings.HasPrefix(u, "https://github.com/acme/app") {
			t.Errorf("the page links to %.60s", u)
		}
	}
	if !strings.Contains(md, "](https://github.com/acme/app/commit/") || !strings.Contains(page.String(), "<circle class=\"sched\"") {
		t.Error("no commit link in the Markdown, or no scheduled run drawn")
	}
	tr.Repository = "javascript:alert(1)"
	page.Reset()
	TrendHTML(&page, tr)
	if strings.Contains(page.String(), "href=") || strings.Contains(TrendMarkdown(tr), "](") {
		t.Error("an unsafe repository address is linked")
	}
}
