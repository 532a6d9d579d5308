// Package scaffold writes what `latgate init` creates: a commented
// latgate.yaml and a pull-request workflow.
package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/latgate/latgate/apis"
)

// SchemaURL is where editors find the suite's JSON Schema.
const SchemaURL = "https://raw.githubusercontent.com/latgate/latgate/main/docs/schema/latgate.schema.json"

// Provider is an endpoint whose key init can detect in the environment.
type Provider struct {
	KeyEnv  string // the variable holding the key
	API     string // "" for the default API
	BaseURL string // "" for the API's default
	Model   string
}

// compatible are hosted servers of the default API (OpenAI-compatible
// chat completions), looked for after the APIs' own keys.
var compatible = []Provider{
	{KeyEnv: "OPENROUTER_API_KEY", BaseURL: "https://openrouter.ai/api/v1", Model: "openai/gpt-4o-mini"},
	{KeyEnv: "GROQ_API_KEY", BaseURL: "https://api.groq.com/openai/v1", Model: "llama-3.1-8b-instant"},
	{KeyEnv: "TOGETHER_API_KEY", BaseURL: "https://api.together.xyz/v1", Model: "meta-llama/Llama-3.3-70B-Instruct-Turbo"},
}

// Providers are what init knows, in the order their keys are looked for:
// each API's own (its spec's Init, in the registry's order), then the
// hosted OpenAI-compatible servers.
func Providers() []Provider {
	var out []Provider
	for _, s := range apis.All() {
		if i := s.Init; i != nil {
			p := Provider{KeyEnv: i.KeyEnv, API: s.Name, BaseURL: i.BaseURL, Model: i.Model}
			if s.Default {
				p.API = ""
			}
			out = append(out, p)
		}
	}
	return append(out, compatible...)
}

// InitOptions choose the endpoint; empty fields are detected or defaulted.
type InitOptions struct {
	BaseURL, Model, KeyEnv string
	Getenv                 func(string) string
}

// SimURL is where `latgate sim` serves by default: the endpoint of a suite
// written with no key in the environment and no flags.
const SimURL = "http://127.0.0.1:8080/v1"

// Init returns the files to write, by path, and a line saying what was
// detected. With no key in the environment and no flags, the endpoint is
// the built-in simulator (`latgate sim`), so the suite runs at once. A
// base URL other than the simulator's needs a model: the error says so.
func Init(o InitOptions) (map[string]string, string, error) {
	if o.BaseURL != "" && o.Model == "" && strings.TrimRight(o.BaseURL, "/") != SimURL {
		return nil, "", fmt.Errorf("--base-url %s needs --model: the name of the model that endpoint serves (only the simulator at %s has a default, realistic)", o.BaseURL, SimURL)
	}
	p := Provider{BaseURL: SimURL, Model: "realistic"}
	how := "no API key found in the environment: the suite measures the built-in simulator (start it with: latgate sim); " +
		"the workflow starts it on the runner too: to measure your model, point latgate.yaml at it and remove the simulator's steps"
	if o.BaseURL == "" && o.KeyEnv == "" && o.Getenv != nil {
		for _, c := range Providers() {
			if o.Getenv(c.KeyEnv) != "" {
				p, how = c, fmt.Sprintf("found %s: the suite measures %s (api %s)", c.KeyEnv, c.Model, apiName(c.API))
				break
			}
		}
	}
	if o.BaseURL != "" {
		p.BaseURL, p.KeyEnv, p.API, how = o.BaseURL, "", "", "endpoint "+o.BaseURL
	}
	if o.KeyEnv != "" {
		p.KeyEnv = o.KeyEnv
	}
	if o.Model != "" {
		p.Model = o.Model
	}
	key := ""
	secret := ""
	if p.KeyEnv != "" {
		key = fmt.Sprintf("    api_key_env: %s          # the key is read from this variable, never from the file\n", p.KeyEnv)
		secret = fmt.Sprintf("          %s: ${{ secrets.%s }}\n", p.KeyEnv, p.KeyEnv)
	}
	where := ""
	if p.API != "" {
		where += "    api: " + p.API + "\n"
	}
	if p.BaseURL != "" {
		where += "    base_url: " + p.BaseURL + "\n"
	}
	model := p.Model
	if o.Model == "" && p.Model == "realistic" && strings.TrimRight(p.BaseURL, "/") == SimURL {
		model += "           # a simulator profile's name: latgate sim serves it so, whatever its --profile"
	}
	lanes, note := "192", " 192 lanes: +20% TTFT in\n# under a minute, an unchanged head passed in about half a minute (docs/statistics.md)."
	if strings.TrimRight(p.BaseURL, "/") != SimURL {
		lanes, note = "8", " Raise them as far as your\n# rate limits allow: on 192 lanes +20% TTFT is caught in under a minute (docs/statistics.md)."
	}
	cfg := strings.NewReplacer("{{schema}}", SchemaURL, "{{where}}", where, "{{model}}", model, "{{key}}", key,
		"{{lanes}}", lanes, "{{lanes_note}}", note).Replace(configTemplate)
	sim := ""
	if strings.TrimRight(p.BaseURL, "/") == SimURL {
		sim = strings.ReplaceAll(simSteps, "{{addr}}", simAddr)
	}
	wf := strings.NewReplacer("{{secret}}", secret, "{{sim}}", sim).Replace(workflowTemplate)
	if secret == "" {
		wf = strings.Replace(wf, "        env:\n", "", 1)
	}
	return map[string]string{"latgate.yaml": cfg, WorkflowPath: wf}, how, nil
}

const configTemplate = `# yaml-language-server: $schema={{schema}}
# latgate suite: what to measure and when to fail. Every key: docs/config.md.
endpoints:
  - name: main
{{where}}    model: {{model}}
{{key}}scenarios:
  # One entry per kind of request your users send. Keep prompts representative:
  # the length of the prompt and of the answer drive TTFT and total time.
  - name: chat-short
    messages:
      - {role: system, content: "You are a concise assistant."}
      - {role: user, content: "Summarise the plot of Hamlet in three sentences."}
    max_tokens: 128
    # Adaptive: a look every 100 requests per variant stops as soon as every
    # check is decided: a regression, or within the tolerance (its interval
    # inside it, or too noisy to test even at max, as a P95 is); at most 1000.
    requests: {min: 100, max: 1000}
    concurrency: 1             # in-flight requests per lane; or rate: 2/s for open-loop arrivals
# Lanes: copies of each scenario's load run at once, each interleaving base and
# head in its own blocks, so both always meet the same load. The endpoint meets
# lanes x the load: a rate limit answers 429 (a failed request, never a sample),
# and a self-hosted engine is measured at that load.{{lanes_note}}
lanes: {{lanes}}
budgets:                       # absolute limits (ms); a blown budget fails the gate
  ttft: {p95: 1500}
regression:
  tolerance: 10%               # smallest relative change worth failing for
  min_delta: 25ms              # ... and smallest absolute change
  alpha: 0.05                  # family-wise false-alarm rate for the whole suite
  fail_on: [regression, over_budget]
limits:
  timeout: 60s                 # per request
  max_requests: 2500           # per run, a cost cap (warmup included)
  max_output_tokens: 300000    # per run, a cost cap: 1000 requests per side of 128 tokens fit
`

const workflowTemplate = `# latgate on pull requests: the base branch's suite and the pull request's
# suite are measured interleaved in one job (mode: ab), so provider drift
# between runs cannot fail the gate. Guide: docs/workflows.md.
name: latency-ab

on:
  pull_request:
    # labeled/unlabeled: adding or removing the accept label re-runs the check.
    types: [opened, synchronize, reopened, labeled, unlabeled]

permissions:
  contents: read
  pull-requests: write         # the sticky comment

jobs:
  latency:
    # Other labels do not re-measure. Keep the name in step with accept-label.
    if: >-
      (github.event.action != 'labeled' && github.event.action != 'unlabeled')
      || github.event.label.name == 'latency-accepted'
    runs-on: ubuntu-latest
    concurrency:               # job level: a skipped run never cancels a measurement
      group: latgate-${{ github.event.pull_request.number }}
      cancel-in-progress: true
    steps:
      - uses: actions/checkout@v4
{{sim}}      - uses: latgate/latgate@v1
        with:
          config: latgate.yaml
          mode: ab             # base-config defaults to latgate.yaml at the base commit;
                               # on the pull request that adds it, the head is measured alone
        env:
{{secret}}`

// simAddr is the listen address of SimURL.
const simAddr = "127.0.0.1:8080"

// simSteps start `latgate sim` on the runner, for a suite that measures
// the simulator (no API key was found when it was written).
const simSteps = `      # latgate.yaml measures latgate's simulator (latgate init found no API
      # key), started by these two steps. To measure your model, point
      # latgate.yaml at it, pass its key to the latgate step (env: from
      # secrets) and remove these two steps.
      - uses: latgate/latgate@v1
        with:
          command: install     # only puts latgate on PATH
      - name: Start the simulator
        run: |
          nohup latgate sim --addr {{addr}} --profile realistic > "$RUNNER_TEMP/latgate-sim.log" 2>&1 &
          for i in $(seq 50); do curl -fs http://{{addr}}/v1/models > /dev/null && exit 0; sleep 0.2; done
          echo "::error::the simulator did not start"; cat "$RUNNER_TEMP/latgate-sim.log"; exit 1
`

func apiName(api string) string {
	if api == "" {
		return apis.Default().Name
	}
	return api
}

// WorkflowPath is the workflow Init writes: an A/B workflow, named as its
// model in docs/workflows is (latgate.yml is the stored-history one).
const WorkflowPath = ".github/workflows/latgate-ab.yml"

// Paths are the files Init writes, in order.
var Paths = []string{"latgate.yaml", WorkflowPath}

// Write writes files into dir with write (an atomic writer), refusing to
// overwrite an existing file unless force; it returns the paths written.
func Write(dir string, files map[string]string, force bool, write func(path string, data []byte) error) ([]string, error) {
	for _, p := range Paths {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil && !force {
			return nil, fmt.Errorf("%s exists: not overwritten (use --force)", filepath.Join(dir, p))
		}
	}
	var done []string
	for _, p := range Paths {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return done, err
		}
		if err := write(full, []byte(files[p])); err != nil {
			return done, err
		}
		done = append(done, full)
	}
	return done, nil
}
