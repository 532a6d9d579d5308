package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/ghfake"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

// TestPublishIgnoresForgedConfirmation: an A/B results file whose head
// regressed, with confirmation runs copied from its base (two runs that
// find nothing), is published by the default branch's suite. The runs
// count only when that suite sets regression.confirm, and only with the
// requests per side of the run they confirm: without it, and with it but
// fewer requests, the gate fails (exit 1), the sticky comment stays a
// failure and says why the runs were ignored. With it and the runs'
// full count they are applied as before: the regression is unconfirmed
// and the gate passes (a suite that asks for confirmation trusts a file's
// confirmation runs as it trusts its other runs).
func TestPublishIgnoresForgedConfirmation(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		slow := sim.New(fastProfile(60*time.Millisecond), 8)
		slow.APIKey = testKey
		hs := clocktest.NewServer(t, slow)
		ab := filepath.Join(dir, "ab.json")
		r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "ab", "-c", cfg, "--base-config", cfg, "--head-url", "local="+hs.URL+"/v1", "-o", ab)
		if r.code != 1 {
			t.Fatalf("ab with the head 6× slower: exit %d, want 1:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		forge := func(name string, requests int) string {
			f, err := fileio.Read(ab)
			if err != nil {
				t.Fatal(err)
			}
			var base results.Run
			for _, run := range f.Runs {
				if run.Variant == vocab.Base {
					base = run
				}
			}
			for _, side := range []vocab.Side{vocab.Base, vocab.Head} {
				c := base
				c.Variant, c.Confirm = side, true
				c.Requests = append([]results.Request(nil), base.Requests[:requests]...)
				f.Runs = append(f.Runs, c)
			}
			path := filepath.Join(dir, name)
			if err := fileio.Write(path, f); err != nil {
				t.Fatal(err)
			}
			return path
		}
		full, few := forge("forged.json", 40), forge("few.json", 20)
		plain, _ := os.ReadFile(cfg)
		confirming := string(plain) + "regression:\n  confirm: true\n"

		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		delete(env, "TEST_API_KEY") // the publish job has no model secrets
		publish := func(results, suite string, ops ...ghfake.Op) (result, string) {
			t.Helper()
			if err := os.WriteFile(cfg, []byte(suite), 0o644); err != nil { // one suite file: one sticky comment
				t.Fatal(err)
			}
			api.Expect(ops...)
			r := runCLI(t, env, "publish", "--results", results, "-c", cfg)
			api.Verify()
			c := api.Comments(7)
			return r, c[len(c)-1].Body
		}
		r, body := publish(ab, string(plain), ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		if r.code != 1 || !strings.Contains(body, "latency fail") {
			t.Fatalf("the honest file: exit %d, want 1 and a failing comment:\n%s\n%s", r.code, r.stderr, body)
		}
		for _, tt := range []struct {
			name, results, suite string
			code                 int
			comment              []string
		}{
			{"no regression.confirm", full, string(plain), 1, []string{"latency fail", "confirmation runs were ignored", "the judging suite does not set regression.confirm"}},
			{"fewer requests per side", few, confirming, 1, []string{"latency fail", "confirmation runs were ignored", "they do not have the requests per side of the run they confirm (20, want 40)"}},
			{"honest count, regression.confirm", full, confirming, 0, []string{"latency pass", "inconclusive"}},
		} {
			r, body := publish(tt.results, tt.suite, ghfake.GetUser, ghfake.ListComments, ghfake.UpdateComment)
			if r.code != tt.code {
				t.Errorf("%s: exit %d, want %d:\n%s", tt.name, r.code, tt.code, r.stderr)
			}
			for _, want := range tt.comment {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the comment lacks %q:\n%s", tt.name, want, body)
				}
			}
			if tt.code == 1 && strings.Contains(body, "latency pass") {
				t.Errorf("%s: the sticky comment flipped to a pass:\n%s", tt.name, body)
			}
		}
	})
}
