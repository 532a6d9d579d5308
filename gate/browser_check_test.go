//go:build browser

package gate

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/sim"
)

// TestBrowserCheck: latgate check loads a chat page in the browser and
// sends its first prompt: the simulator's page is ok, with its TTFT; a
// page whose answer never appears (a selector of the suite that matches
// nothing) is not usable, with the page's own words. Real clock: it
// asserts no time.
func TestBrowserCheck(t *testing.T) {
	chromium(t)
	p, _ := sim.Named("fast")
	p.ToolSteps, p.TTFT, p.ITL, p.Tokens = 0, sim.Fixed(50*time.Millisecond), sim.Fixed(5*time.Millisecond), 24
	srv := httptest.NewServer(sim.New(p, 1))
	defer srv.Close()
	for _, c := range []struct{ output, want string }{
		{"[data-role=assistant]", "ok      web ("},
		{"[data-role=nobody]", "FAILED  web ("},
	} {
		path := filepath.Join(t.TempDir(), "latgate.yaml")
		yaml := `endpoints:
  - name: web
    api: browser
    url: "` + srv.URL + `/chat"
    browser: {input: textarea, submit: "button[type=submit]", output: "` + c.output + `", done: "[data-status=ready]"}
scenarios:
  - {name: page, prompt: "Say something.", requests: 10}
limits: {timeout: 10s}
`
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		err := Check(context.Background(), Env{Stdout: &out, Stderr: &errOut, Getenv: os.Getenv}, CheckOptions{Config: path})
		t.Logf("%s", out.String())
		if !strings.Contains(out.String(), c.want) || (c.want[0] == 'o') != (err == nil) {
			t.Errorf("output %s: check %v\n%s%s", c.output, err, out.String(), errOut.String())
		}
	}
}
