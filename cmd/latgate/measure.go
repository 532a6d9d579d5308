package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
)

// loadConfig reads and validates a suite; errors are usage errors (exit 2).
func loadConfig(path string, getenv func(string) string, skipKeys bool) (*suite.Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, usagef("%s: no such file (give the suite with -c FILE)", path)
		}
		return nil, usagef("%s: %v", path, err)
	}
	cfg, err := suite.Parse(path, b, suite.Options{ReadFile: os.ReadFile, Getenv: getenv, SkipKeys: skipKeys})
	if err != nil {
		return nil, usageError{err}
	}
	return cfg, nil
}

// newHTTPClient keeps at least as many idle connections per host as the
// suite has requests in flight (Go keeps 2 by default, which would turn
// every burst into new connections), or none for cold-connection suites.
func newHTTPClient(cfg *suite.Config) *http.Client {
	inFlight := 1
	for _, s := range cfg.Scenarios {
		n := s.Concurrency
		if s.Rate > 0 {
			n = s.MaxInFlight
		}
		inFlight = max(inFlight, n)
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          inFlight * max(len(cfg.Endpoints), 1),
		MaxIdleConnsPerHost:   inFlight,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableKeepAlives:     cfg.Limits.ColdConnections,
	}
	return &http.Client{Transport: tr}
}

type plannedRun struct {
	scenario suite.Scenario
	endpoint suite.Endpoint
}

// requestBody builds the chat-completions request with go-openai's types;
// a non-empty prefix goes in front of the first message.
func requestBody(s suite.Scenario, e suite.Endpoint, prefix string) ([]byte, error) {
	req := openai.ChatCompletionRequest{
		Model:         e.Model,
		MaxTokens:     s.MaxTokens,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if s.Temperature != nil {
		req.Temperature = float32(*s.Temperature)
	}
	for i, m := range s.Messages {
		c := m.Content
		if i == 0 {
			c = prefix + c
		}
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: c})
	}
	return json.Marshal(req)
}

type measureOptions struct {
	client   *http.Client
	source   baseline.Source
	progress io.Writer
	// isTTY selects a progress bar; otherwise short periodic lines.
	isTTY bool
}

// measure runs the whole suite and returns a results file. It fails (exit 3)
// only when nothing could be measured.
func measure(ctx context.Context, cfg *suite.Config, opt measureOptions) (*baseline.File, error) {
	var plan []plannedRun
	var groups []probe.Group
	for _, s := range cfg.Scenarios {
		for _, ep := range cfg.EndpointsFor(s) {
			body, err := requestBody(s, ep, "")
			if err != nil {
				return nil, err
			}
			var bodyFor func(int) []byte
			if s.Cache == "cold" {
				nonce := runNonce()
				s, ep := s, ep
				bodyFor = func(i int) []byte {
					b, _ := requestBody(s, ep, fmt.Sprintf("[%s-%d]\n", nonce, i))
					return b
				}
			}
			plan = append(plan, plannedRun{s, ep})
			groups = append(groups, probe.Group{
				Request:     probe.Request{URL: ep.BaseURL + "/chat/completions", Body: body, APIKey: ep.APIKey, Headers: ep.Headers},
				Requests:    s.Requests,
				Warmup:      s.Warmup,
				Concurrency: s.Concurrency,
				Rate:        s.Rate,
				MaxInFlight: s.MaxInFlight,
				BodyFor:     bodyFor,
			})
		}
	}
	client := opt.client
	if client == nil {
		client = newHTTPClient(cfg)
	}
	planned := cfg.PlannedRequests()
	if cfg.Limits.MaxRequests > 0 && planned > cfg.Limits.MaxRequests {
		fmt.Fprintf(opt.progress, "latgate: warning: the suite plans %d requests but limits.max_requests is %d: the run will stop early\n", planned, cfg.Limits.MaxRequests)
	}
	prog := newProgress(opt.progress, opt.isTTY, planned, plan)
	// Records become their file form as they arrive: a long run holds each
	// request once (about 1.3 KB at 128 output tokens).
	requests := make([][]baseline.Request, len(plan))
	measured := 0
	r := &probe.Runner{
		Sink: func(g int, rec probe.Record) {
			requests[g] = append(requests[g], baseline.FromRecord(rec))
			if rec.OK {
				measured++
			}
		},
		Prober: &probe.Prober{
			Client: client, Timeout: cfg.Limits.Timeout, StallTimeout: cfg.Limits.StallTimeout,
			ReadingRate: cfg.ReadingRate, Secrets: cfg.Secrets(),
		},
		Limits:   probe.Limits{MaxRequests: cfg.Limits.MaxRequests, MaxOutputTokens: cfg.Limits.MaxOutputTokens},
		Seed:     1,
		OnRecord: prog.record,
	}
	res := r.Run(ctx, groups)
	prog.done()

	f := &baseline.File{
		Schema: baseline.Schema, MetricsVersion: baseline.MetricsVersion, ToolVersion: toolVersion(),
		CreatedAt: time.Now().UTC().Truncate(time.Second), Source: opt.source,
	}
	if res.Stopped != "" {
		f.Notes = append(f.Notes, res.Stopped)
	}
	if res.Interrupted {
		f.Notes = append(f.Notes, "interrupted: the run was stopped by a signal; results hold what was measured")
	}
	for i, pr := range plan {
		fp, parts := suite.Fingerprint(pr.scenario, pr.endpoint)
		label := pr.endpoint.Name
		if opt.source.Region != "" {
			// Matrix legs measure the same endpoint from several regions:
			// the region keeps their runs apart when merged and compared.
			label += "@" + opt.source.Region
		}
		run := baseline.Run{
			Scenario: pr.scenario.Name, Endpoint: label, Model: pr.endpoint.Model, Region: opt.source.Region,
			Fingerprint: fp, FingerprintParts: parts, ConfigLine: pr.scenario.Line,
			Config: baseline.RunConfig{
				MaxTokens: pr.scenario.MaxTokens, Requests: pr.scenario.Requests, Warmup: pr.scenario.Warmup,
				ReadingRate: cfg.ReadingRate, ColdConnections: cfg.Limits.ColdConnections,
			},
			Requests: requests[i],
		}
		if run.Requests == nil {
			run.Requests = []baseline.Request{}
		}
		if pr.scenario.Rate > 0 {
			run.Config.Rate = pr.scenario.Rate
		} else {
			run.Config.Concurrency = pr.scenario.Concurrency
		}
		if len(run.Requests) > 0 {
			f.Runs = append(f.Runs, run)
		}
	}
	if measured == 0 {
		recorded := 0
		for _, run := range f.Runs {
			recorded += len(run.Requests)
		}
		var why string
		switch {
		case res.Interrupted:
			why = "interrupted before any request completed"
		case recorded == 0 && res.Stopped != "":
			why = res.Stopped + " before any measured request (warmup requests count toward the caps)"
		default:
			why = "every request failed"
			for _, run := range f.Runs {
				if len(run.Requests) > 0 {
					why += ", for example: " + run.Requests[0].Error
					break
				}
			}
		}
		return f, cannotRunError{fmt.Errorf("no results: %s", why)}
	}
	return f, nil
}

// runNonce is unique per run, so cold-cache prefixes never repeat across runs.
func runNonce() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// gitSource describes where results were recorded: GitHub's variables when
// present, else the local git checkout (bounded to 2 seconds).
func gitSource(getenv func(string) string, region string) baseline.Source {
	s := baseline.Source{GitSHA: getenv("GITHUB_SHA"), GitRef: getenv("GITHUB_REF"), Runner: getenv("RUNNER_NAME"), Region: region}
	if s.Region == "" {
		s.Region = getenv("LATGATE_REGION")
	}
	git := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "git", args...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	if s.GitSHA == "" {
		s.GitSHA = git("rev-parse", "HEAD")
	}
	if s.GitRef == "" {
		if b := git("rev-parse", "--abbrev-ref", "HEAD"); b != "" && b != "HEAD" {
			s.GitRef = "refs/heads/" + b
		}
	}
	if s.Runner == "" {
		s.Runner, _ = os.Hostname()
	}
	return s
}

// progressBar reports whether to draw a bar: on a terminal, and never in CI
// logs (some runners give steps a terminal).
func progressBar(e *env) bool {
	return isTerminal(e.stderr) && e.getenv("CI") == "" && e.getenv("GITHUB_ACTIONS") != "true"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
