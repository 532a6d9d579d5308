// Package ghfake is a fake of the GitHub REST API endpoints latgate uses,
// for tests of any package: issue comments (list with paging, create,
// update), the token's identity, pull requests (list with filters and
// paging, and the pull requests of a commit), workflow runs, their
// artifacts and the artifact download, which redirects to a separate
// storage server that must never receive the token.
//
// It answers as GitHub does, including for forks: a pull request whose head
// lives in a fork has its head commit only in the fork, so
// GET /repos/{o}/{r}/commits/{sha}/pulls returns [] for it.
//
// A test declares the calls it expects with Expect. The fake fails the test
// on any call that was not expected (or matches no endpoint), and, at
// Verify or when the test ends, for every expected call that was not made.
// A fake with no expectations allows no call at all.
//
// Use it from any package's tests:
//
//	f := ghfake.New(t, "o/r")
//	f.Token = "ghs_x"                       // calls without it get 401
//	f.AddPull(ghfake.Pull{Number: 7, HeadSHA: sha, HeadRepo: f.ForkOf("alice")})
//	f.Expect(ghfake.ListPulls, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
//	// … run the code with f.Client() and f.APIURL (GITHUB_API_URL) …
//	got := f.Comments(7)                    // and f.Take() for the exact calls
//
// FailWith makes an endpoint answer an error status (403 for a token that
// may not do it, 404, 502, …) and RateLimit makes it answer as GitHub does
// when the rate limit is exhausted (403 or 429 with X-RateLimit-Remaining: 0
// and the time it resets). It does not model permissions beyond one token
// and these, or any endpoint latgate does not call.
package ghfake

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// Op is one endpoint, named by its method and path pattern as GitHub's
// documentation writes it.
type Op string

// The endpoints the fake serves.
const (
	GetUser          Op = "GET /user"
	ListComments     Op = "GET /repos/{owner}/{repo}/issues/{number}/comments"
	CreateComment    Op = "POST /repos/{owner}/{repo}/issues/{number}/comments"
	UpdateComment    Op = "PATCH /repos/{owner}/{repo}/issues/comments/{id}"
	ListPulls        Op = "GET /repos/{owner}/{repo}/pulls"
	CommitPulls      Op = "GET /repos/{owner}/{repo}/commits/{sha}/pulls"
	ListWorkflowRuns Op = "GET /repos/{owner}/{repo}/actions/workflows/{workflow}/runs"
	ListRepoRuns     Op = "GET /repos/{owner}/{repo}/actions/runs"
	ListArtifacts    Op = "GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts"
	DownloadArtifact Op = "GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip"
	// Storage is the pre-signed blob URL an artifact download redirects
	// to, on another server.
	Storage Op = "GET /storage/{id}"
)

// Bot is the login of comments made with a workflow's GITHUB_TOKEN.
const Bot = "github-actions[bot]"

// ServerURL is the web address used in html_url fields.
const ServerURL = "https://github.test"

// Comment is an issue or pull-request comment.
type Comment struct {
	ID   int64
	User string
	Body string
}

// Pull is a pull request of the fake's repository. HeadRepo is the full
// name of the repository its head branch lives in: the fake's own
// repository, a fork ("alice/r"), or "" when the fork was deleted.
type Pull struct {
	Number    int
	State     string // "open" (default) or "closed"
	HeadSHA   string
	HeadRef   string
	HeadRepo  string
	BaseRef   string // default "main"
	BaseSHA   string
	CreatedAt time.Time
}

// Run is a workflow run with its artifacts. HeadRepo is the full name of
// the repository its head commit and branch live in: the fake's own
// repository (the default), or a fork's for a fork's pull_request run.
type Run struct {
	ID         int64
	Workflow   string // workflow file name, e.g. "latgate.yml"
	Branch     string // head branch
	HeadSHA    string
	HeadRepo   string // default the fake's repository
	Event      string // default "push"
	Conclusion string // default "success"
	CreatedAt  time.Time
	Artifacts  []Artifact
}

// Artifact is an artifact of a run; Zip is what its download serves.
type Artifact struct {
	ID      int64
	Name    string
	Expired bool
	Zip     []byte
}

// Call is one request the fake received.
type Call struct {
	Op     Op // "" when it matched no endpoint
	Method string
	Path   string // without the API prefix
	Query  string // raw query, as sent
	Auth   string // the Authorization header
}

// String is "METHOD /path?query".
func (c Call) String() string {
	s := c.Method + " " + c.Path
	if c.Query != "" {
		s += "?" + c.Query
	}
	return s
}

// Fake is a fake GitHub API for one repository.
type Fake struct {
	// APIURL is the API root to give the client, shaped like a GitHub
	// Enterprise Server's (…/api/v3); requests without the prefix are
	// served too, so URL works as well.
	APIURL string
	// URL is the bare server address.
	URL string
	// Repo is "owner/name".
	Repo string
	// Token, when set, must be sent as "Bearer TOKEN" on every API call;
	// other calls get 401 Bad credentials.
	Token string
	// Login is the token's identity for GET /user; "" answers 403, as
	// GitHub does for a workflow's GITHUB_TOKEN.
	Login string

	t       testing.TB
	api     served
	storage served
	sig     string

	mu       sync.Mutex
	comments map[int][]*Comment
	nextID   int64
	pulls    []*Pull
	runs     []*Run
	fail     map[Op]int
	limited  map[Op]rateLimit
	expected map[Op]int // expected op → calls since the last Verify
	calls    []Call
	taken    int
}

// served is one of the fake's servers.
type served struct {
	url    string
	client *http.Client
	close  func()
}

// New starts a fake for repository "owner/name" on the loopback and stops
// it when the test ends, after checking that every expected call was made.
func New(t testing.TB, repo string) *Fake {
	t.Helper()
	return newFake(t, repo, func(h http.Handler) served {
		s := httptest.NewServer(h)
		return served{s.URL, s.Client(), s.Close}
	})
}

// Virtual is New on internal/clocktest's in-memory loopback, for a test in
// a testing/synctest bubble (create it inside the bubble): its clients
// (Client, or any clocktest server's) reach it on virtual time.
func Virtual(t testing.TB, repo string) *Fake {
	t.Helper()
	return newFake(t, repo, func(h http.Handler) served {
		s := clocktest.NewServer(t, h)
		return served{s.URL, s.Client(), s.Close}
	})
}

func newFake(t testing.TB, repo string, serve func(http.Handler) served) *Fake {
	sig := make([]byte, 8)
	_, _ = rand.Read(sig)
	f := &Fake{
		Repo: repo, t: t, sig: hex.EncodeToString(sig),
		comments: map[int][]*Comment{}, nextID: 100,
		fail: map[Op]int{}, limited: map[Op]rateLimit{}, expected: map[Op]int{},
	}
	api := http.NewServeMux()
	f.route(api, GetUser, f.getUser)
	f.route(api, ListComments, f.listComments)
	f.route(api, CreateComment, f.createComment)
	f.route(api, UpdateComment, f.updateComment)
	f.route(api, ListPulls, f.listPulls)
	f.route(api, CommitPulls, f.commitPulls)
	f.route(api, ListWorkflowRuns, f.listRuns)
	f.route(api, ListRepoRuns, f.listRuns)
	f.route(api, ListArtifacts, f.listArtifacts)
	f.route(api, DownloadArtifact, f.download)
	api.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f.record("", r)
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	f.api = serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := strings.CutPrefix(r.URL.Path, "/api/v3"); ok && (p == "" || p[0] == '/') {
			r.URL.Path = p
			r.URL.RawPath = ""
		}
		api.ServeHTTP(w, r)
	}))
	st := http.NewServeMux()
	f.route(st, Storage, f.serveBlob)
	st.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f.record("", r)
		w.WriteHeader(http.StatusNotFound)
	})
	f.storage = serve(st)
	f.URL = f.api.url
	f.APIURL = f.api.url + "/api/v3"
	t.Cleanup(func() {
		f.api.close()
		f.storage.close()
		f.Verify()
	})
	return f
}

// Client is an HTTP client for the fake's servers.
func (f *Fake) Client() *http.Client { return f.api.client }

// Expect declares calls the test expects. Each must be made at least once
// (paging may make it several times) before the next Verify or the end of
// the test; a call of any other endpoint fails the test.
func (f *Fake) Expect(ops ...Op) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, op := range ops {
		if _, ok := f.expected[op]; !ok {
			f.expected[op] = 0
		}
	}
}

// Verify fails the test for every expected call not made since the last
// Verify, then forgets the expectations: from then on, no call is expected
// until Expect is called again. It runs by itself when the test ends.
func (f *Fake) Verify() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var missing []string
	for op, n := range f.expected {
		if n == 0 {
			missing = append(missing, string(op))
		}
	}
	slices.Sort(missing)
	for _, op := range missing {
		f.t.Errorf("ghfake: expected call %s was not made", op)
	}
	clear(f.expected)
}

// FailWith makes every call of op answer status, with GitHub's message
// for it (403: a token that may not do it).
func (f *Fake) FailWith(op Op, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[op] = status
}

type rateLimit struct {
	status int
	reset  time.Time
}

// RateLimit makes every call of op answer as GitHub does when the token's
// rate limit is exhausted until reset: status 403 (the primary limit) or
// 429, with X-RateLimit-Remaining: 0 and X-RateLimit-Reset, and for 429
// Retry-After.
func (f *Fake) RateLimit(op Op, status int, reset time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limited[op] = rateLimit{status: status, reset: reset}
}

// failMessage is GitHub's message for an error status.
func failMessage(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "Bad credentials"
	case status == http.StatusForbidden:
		return "Resource not accessible by integration"
	case status == http.StatusNotFound:
		return "Not Found"
	case status >= 500:
		return "Server Error"
	}
	return http.StatusText(status)
}

// Calls returns every call received so far.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// Take returns the calls received since the last Take, as "METHOD
// /path?query".
func (f *Fake) Take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls[f.taken:] {
		out = append(out, c.String())
	}
	f.taken = len(f.calls)
	return out
}

// AddComment puts a comment on issue or pull request number and returns
// its id.
func (f *Fake) AddComment(number int, user, body string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.comments[number] = append(f.comments[number], &Comment{ID: f.nextID, User: user, Body: body})
	return f.nextID
}

// Comments returns the comments on issue or pull request number, oldest
// first.
func (f *Fake) Comments(number int) []Comment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Comment
	for _, c := range f.comments[number] {
		out = append(out, *c)
	}
	return out
}

// AddPull adds a pull request. An empty State is "open", an empty BaseRef
// "main", an empty HeadRepo the fake's repository (use ForkOf for a fork).
func (f *Fake) AddPull(p Pull) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.State == "" {
		p.State = "open"
	}
	if p.BaseRef == "" {
		p.BaseRef = "main"
	}
	if p.HeadRepo == "" {
		p.HeadRepo = f.Repo
	}
	if p.HeadRef == "" {
		p.HeadRef = fmt.Sprintf("branch-%d", p.Number)
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(p.Number) * time.Hour)
	}
	f.pulls = append(f.pulls, &p)
}

// ForkOf is the full name of user's fork of the fake's repository.
func (f *Fake) ForkOf(user string) string {
	_, name, _ := strings.Cut(f.Repo, "/")
	return user + "/" + name
}

// AddRun adds a workflow run. An empty Event is "push", an empty
// Conclusion "success", an empty HeadRepo the fake's repository.
func (f *Fake) AddRun(r Run) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.HeadRepo == "" {
		r.HeadRepo = f.Repo
	}
	if r.Event == "" {
		r.Event = "push"
	}
	if r.Conclusion == "" {
		r.Conclusion = "success"
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.ID) * time.Hour)
	}
	f.runs = append(f.runs, &r)
}

// RunURL is the html_url of run id.
func (f *Fake) RunURL(id int64) string {
	return fmt.Sprintf("%s/%s/actions/runs/%d", ServerURL, f.Repo, id)
}

// File is one file of a zip made by Zip.
type File struct {
	Name string
	Body string
}

// Zip returns a zip archive holding files in the order given.
func Zip(files ...File) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, file := range files {
		w, err := zw.Create(file.Name)
		if err != nil {
			panic(err)
		}
		_, _ = w.Write([]byte(file.Body))
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// route serves op on mux: it records the call, fails the test when op is
// not expected, checks the token and the repository, and answers a
// status set by FailWith.
func (f *Fake) route(mux *http.ServeMux, op Op, h func(http.ResponseWriter, *http.Request)) {
	mux.HandleFunc(string(op), func(w http.ResponseWriter, r *http.Request) {
		f.record(op, r)
		if op == Storage {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if f.Token != "" && r.Header.Get("Authorization") != "Bearer "+f.Token {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Bad credentials"})
			return
		}
		if o := r.PathValue("owner"); o != "" && o+"/"+r.PathValue("repo") != f.Repo {
			writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
			return
		}
		f.mu.Lock()
		status := f.fail[op]
		limit, limited := f.limited[op]
		f.mu.Unlock()
		if limited {
			h := w.Header()
			h.Set("X-RateLimit-Limit", "1000")
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("X-RateLimit-Used", "1000")
			h.Set("X-RateLimit-Reset", strconv.FormatInt(limit.reset.Unix(), 10))
			if limit.status == http.StatusTooManyRequests {
				h.Set("Retry-After", strconv.Itoa(max(1, int(time.Until(limit.reset).Seconds()+0.999))))
			}
			writeJSON(w, limit.status, map[string]any{"message": "API rate limit exceeded for installation ID 1.",
				"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"})
			return
		}
		if status != 0 {
			writeJSON(w, status, map[string]any{"message": failMessage(status)})
			return
		}
		h(w, r)
	})
}

func (f *Fake) record(op Op, r *http.Request) {
	f.t.Helper()
	c := Call{Op: op, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization")}
	f.mu.Lock()
	f.calls = append(f.calls, c)
	_, ok := f.expected[op]
	if ok {
		f.expected[op]++
	}
	f.mu.Unlock()
	switch {
	case op == "":
		f.t.Errorf("ghfake: call of an endpoint the fake does not serve: %s", c)
	case !ok:
		f.t.Errorf("ghfake: unexpected call %s (%s)", c, op)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
}

// page cuts n items into the page the request asks for (per_page default
// 30, at most 100) and sets GitHub's Link header.
func (f *Fake) page(w http.ResponseWriter, r *http.Request, n int) (lo, hi int) {
	q := r.URL.Query()
	per, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || per <= 0 {
		per = 30
	}
	per = min(per, 100)
	pg, err := strconv.Atoi(q.Get("page"))
	if err != nil || pg <= 0 {
		pg = 1
	}
	last := max(1, (n+per-1)/per)
	link := func(p int, rel string) string {
		q.Set("page", strconv.Itoa(p))
		u := url.URL{Scheme: "http", Host: r.Host, Path: "/api/v3" + r.URL.Path, RawQuery: q.Encode()}
		return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
	}
	var links []string
	if pg < last {
		links = append(links, link(pg+1, "next"), link(last, "last"))
	}
	if pg > 1 {
		links = append(links, link(1, "first"), link(pg-1, "prev"))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	lo = min((pg-1)*per, n)
	return lo, min(lo+per, n)
}

func (f *Fake) getUser(w http.ResponseWriter, r *http.Request) {
	if f.Login == "" {
		writeJSON(w, http.StatusForbidden, map[string]any{"message": "Resource not accessible by integration"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": f.Login, "type": "User"})
}

func (f *Fake) commentJSON(number int, c *Comment) map[string]any {
	return map[string]any{
		"id": c.ID, "body": c.Body,
		"user":     map[string]any{"login": c.User},
		"html_url": fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", ServerURL, f.Repo, number, c.ID),
	}
}

// issueExists: a pull request was added, or the issue has comments.
func (f *Fake) issueExists(number int) bool {
	if len(f.comments[number]) > 0 {
		return true
	}
	return slices.ContainsFunc(f.pulls, func(p *Pull) bool { return p.Number == number })
}

func (f *Fake) listComments(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.PathValue("number"))
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.issueExists(n) {
		notFound(w)
		return
	}
	list := f.comments[n]
	lo, hi := f.page(w, r, len(list))
	out := []map[string]any{}
	for _, c := range list[lo:hi] {
		out = append(out, f.commentJSON(n, c))
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) createComment(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.PathValue("number"))
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Body == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Invalid request: body is required"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.issueExists(n) {
		notFound(w)
		return
	}
	f.nextID++
	c := &Comment{ID: f.nextID, User: f.identity(), Body: *in.Body}
	f.comments[n] = append(f.comments[n], c)
	writeJSON(w, http.StatusCreated, f.commentJSON(n, c))
}

func (f *Fake) identity() string {
	if f.Login != "" {
		return f.Login
	}
	return Bot
}

func (f *Fake) updateComment(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Body == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Invalid request: body is required"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for n, list := range f.comments {
		for _, c := range list {
			if c.ID != id {
				continue
			}
			if c.User != f.identity() {
				writeJSON(w, http.StatusForbidden, map[string]any{"message": "Resource not accessible by integration"})
				return
			}
			c.Body = *in.Body
			writeJSON(w, http.StatusOK, f.commentJSON(n, c))
			return
		}
	}
	notFound(w)
}

func (f *Fake) pullJSON(p *Pull) map[string]any {
	owner, name, _ := strings.Cut(f.Repo, "/")
	head := map[string]any{"sha": p.HeadSHA, "ref": p.HeadRef, "repo": nil, "label": p.HeadRef}
	if p.HeadRepo != "" {
		ho, hn, _ := strings.Cut(p.HeadRepo, "/")
		head["label"] = ho + ":" + p.HeadRef
		head["repo"] = map[string]any{"full_name": p.HeadRepo, "name": hn, "fork": p.HeadRepo != f.Repo, "owner": map[string]any{"login": ho}}
	}
	return map[string]any{
		"number": p.Number, "state": p.State,
		"html_url":   fmt.Sprintf("%s/%s/pull/%d", ServerURL, f.Repo, p.Number),
		"created_at": p.CreatedAt.Format(time.RFC3339),
		"head":       head,
		"base": map[string]any{"sha": p.BaseSHA, "ref": p.BaseRef, "label": owner + ":" + p.BaseRef,
			"repo": map[string]any{"full_name": f.Repo, "name": name, "fork": false, "owner": map[string]any{"login": owner}}},
	}
}

func (f *Fake) listPulls(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var list []*Pull
	for _, p := range f.pulls {
		if state != "all" && p.State != state {
			continue
		}
		if h := q.Get("head"); h != "" {
			ho, _, _ := strings.Cut(p.HeadRepo, "/")
			if p.HeadRepo == "" || h != ho+":"+p.HeadRef {
				continue
			}
		}
		if b := q.Get("base"); b != "" && p.BaseRef != b {
			continue
		}
		list = append(list, p)
	}
	// GitHub's default: newest first.
	slices.SortStableFunc(list, func(a, b *Pull) int { return b.CreatedAt.Compare(a.CreatedAt) })
	if q.Get("direction") == "asc" {
		slices.Reverse(list)
	}
	lo, hi := f.page(w, r, len(list))
	out := []map[string]any{}
	for _, p := range list[lo:hi] {
		out = append(out, f.pullJSON(p))
	}
	writeJSON(w, http.StatusOK, out)
}

// commitPulls lists the pull requests whose head commit is sha and lives
// in this repository. A commit that exists only in a fork is not in this
// repository: GitHub returns [] for it. A commit nobody knows is 422.
func (f *Fake) commitPulls(w http.ResponseWriter, r *http.Request) {
	sha := r.PathValue("sha")
	f.mu.Lock()
	defer f.mu.Unlock()
	known := false
	out := []map[string]any{}
	for _, p := range f.pulls {
		if p.HeadSHA == sha || p.BaseSHA == sha {
			known = true
		}
		if p.HeadSHA == sha && p.HeadRepo == f.Repo {
			out = append(out, f.pullJSON(p))
		}
	}
	for _, run := range f.runs {
		known = known || run.HeadSHA == sha
	}
	if !known {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "No commit found for SHA: " + sha})
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) listRuns(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	wf := r.PathValue("workflow")
	f.mu.Lock()
	defer f.mu.Unlock()
	var list []*Run
	for _, run := range f.runs {
		switch {
		case wf != "" && run.Workflow != wf,
			q.Get("branch") != "" && run.Branch != q.Get("branch"),
			q.Get("event") != "" && run.Event != q.Get("event"),
			q.Get("status") != "" && q.Get("status") != run.Conclusion && q.Get("status") != "completed":
			continue
		}
		list = append(list, run)
	}
	slices.SortStableFunc(list, func(a, b *Run) int { return b.CreatedAt.Compare(a.CreatedAt) })
	lo, hi := f.page(w, r, len(list))
	out := []map[string]any{}
	for _, run := range list[lo:hi] {
		out = append(out, map[string]any{
			"id": run.ID, "name": run.Workflow, "head_branch": run.Branch, "head_sha": run.HeadSHA,
			"event": run.Event, "status": "completed", "conclusion": run.Conclusion,
			"created_at": run.CreatedAt.Format(time.RFC3339), "html_url": f.RunURL(run.ID),
			"path":            ".github/workflows/" + run.Workflow,
			"repository":      repoJSON(f.Repo),
			"head_repository": repoJSON(run.HeadRepo),
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "workflow_runs": out})
}

func repoJSON(full string) map[string]any {
	owner, name, _ := strings.Cut(full, "/")
	return map[string]any{"full_name": full, "name": name, "owner": map[string]any{"login": owner}}
}

func (f *Fake) listArtifacts(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("run"), 10, 64)
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.runs, func(run *Run) bool { return run.ID == id })
	if i < 0 {
		notFound(w)
		return
	}
	arts := f.runs[i].Artifacts
	lo, hi := f.page(w, r, len(arts))
	out := []map[string]any{}
	for _, a := range arts[lo:hi] {
		out = append(out, map[string]any{
			"id": a.ID, "name": a.Name, "expired": a.Expired, "size_in_bytes": len(a.Zip),
			"archive_download_url": fmt.Sprintf("%s/api/v3/repos/%s/actions/artifacts/%d/zip", f.api.url, f.Repo, a.ID),
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(arts), "artifacts": out})
}

func (f *Fake) artifact(id int64) *Artifact {
	for _, run := range f.runs {
		for i := range run.Artifacts {
			if run.Artifacts[i].ID == id {
				return &run.Artifacts[i]
			}
		}
	}
	return nil
}

func (f *Fake) download(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	f.mu.Lock()
	a := f.artifact(id)
	f.mu.Unlock()
	switch {
	case a == nil:
		notFound(w)
	case a.Expired:
		writeJSON(w, http.StatusGone, map[string]any{"message": "Artifact has expired"})
	default:
		w.Header().Set("Location", fmt.Sprintf("%s/storage/%d?sig=%s", f.storage.url, id, f.sig))
		w.WriteHeader(http.StatusFound)
	}
}

// serveBlob is the storage server: it needs the signature, and the token
// must never reach it.
func (f *Fake) serveBlob(w http.ResponseWriter, r *http.Request) {
	if a := r.Header.Get("Authorization"); a != "" {
		f.t.Errorf("ghfake: the Authorization header was sent to artifact storage (%d characters)", len(a))
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if r.URL.Query().Get("sig") != f.sig {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	f.mu.Lock()
	a := f.artifact(id)
	f.mu.Unlock()
	if a == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	_, _ = w.Write(a.Zip)
}
