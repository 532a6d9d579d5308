package fileio

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// kept is a Folder that keeps a copy of every request it is handed.
type kept struct{ requests []results.Request }

func (k *kept) Add(q *results.Request) {
	b, err := json.Marshal(q)
	if err != nil {
		panic(err)
	}
	var c results.Request
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	k.requests = append(k.requests, c)
}

func newKept() *kept { return &kept{} }

// streamFiles are files of every shape a comparison reads: failed
// requests, sessions with steps, A/B blocks, an imported run, an
// incomplete file with an empty run.
func streamFiles() map[string]*results.File {
	v := func(x float64) *float64 { return &x }
	two := 2
	ok := results.Request{OK: true, Status: 200, TTFBMs: v(90), TTFTMs: v(120.5), TTFCMs: v(121), TotalMs: v(400.25), TPOTMs: v(9.5),
		PerceivedMs: v(130), MaxStallMs: v(20), ITLMs: []float64{9, 10.5, 11}, OutputTokens: 4, PromptTokens: 30, CachedTokens: 10,
		TokensSource: "usage", SentMs: 12.5, CostUSD: v(0.0001), Buffered: true}
	failed := results.Request{Status: 429, Error: "HTTP 429 Too Many Requests: slow down", TTFBMs: v(3), ITLMs: []float64{}, SentMs: 40}
	session := ok
	session.StepCount, session.SessionEnd, session.ToolMs, session.AnswerMs, session.SessionMs = &two, "answer", v(50), v(300), v(400.25)
	session.FirstToolCallMs = v(140)
	session.Steps = []results.Step{{TTFTMs: v(120.5), FirstToolCallMs: v(20), ToolCallMs: v(30), TotalMs: v(80), ToolCalls: 1, Tools: []string{"search"}, ToolMs: 50},
		{Turn: 0, StartMs: 130, TTFTMs: v(100), TTFCMs: v(100), TotalMs: v(270), OutputTokens: 3}}
	block := func(q results.Request, b int) results.Request { q.Block = b; return q }
	run := func(scenario string, qs ...results.Request) results.Run {
		return results.Run{Endpoint: "us-east", Scenario: scenario, Model: "m", Fingerprint: "sha256:" + strings.Repeat("a", 64),
			FingerprintParts: map[string]string{"model": "m"}, Config: results.RunConfig{MaxTokens: 8, Concurrency: 2, Requests: len(qs), ReadingRate: 10},
			Requests: qs}
	}
	file := func(runs ...results.Run) *results.File {
		return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "test",
			Source: results.Source{GitSHA: "abc", Runner: "r"}, Runs: runs}
	}
	ab := file(run("chat", block(ok, 1), block(failed, 2)), run("chat", block(ok, 1), block(ok, 2)))
	ab.Runs[0].Variant, ab.Runs[1].Variant = "base", "head"
	imported := file(run("rate=inf concurrency=8", ok, failed))
	imported.Source.Tool = "vllm"
	imported.Runs[0].Imported = &results.Imported{Tool: "vllm", File: "bench.json", Derived: map[string]string{"total_ms": "ttft_ms + sum(itl_ms)"}}
	incomplete := file(run("chat", ok), run("later"))
	incomplete.Incomplete = "interrupted by a signal"
	return map[string]*results.File{
		"plain":      file(run("chat", ok, failed, ok), run("long", ok)),
		"sessions":   file(run("agent", session, failed, session)),
		"ab":         ab,
		"imported":   imported,
		"incomplete": incomplete,
	}
}

// TestStreamAgreesWithRead: a streamed file is its file without the
// requests, and every request reaches its run's fold as Read decodes it,
// in one pass (the whole file is never read).
func TestStreamAgreesWithRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, f := range streamFiles() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".json")
			if err := Write(path, f); err != nil {
				t.Fatal(err)
			}
			if _, _, err, done := streamRegular(path, newKept); !done || err != nil {
				t.Fatalf("the file was left to Read (%v)", err)
			}
			agree(t, path)
		})
	}
}

// agree checks that Stream and Read give the same file and requests.
func agree(t *testing.T, path string) {
	t.Helper()
	full, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	got, folds, err := Stream(path, newKept)
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != len(full.Runs) {
		t.Fatalf("%d folds for %d runs", len(folds), len(full.Runs))
	}
	for i := range full.Runs {
		want := full.Runs[i].Requests
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(folds[i].requests, want) {
			t.Errorf("run %d: the fold got %+v, want %+v", i, folds[i].requests, want)
		}
		if got.Runs[i].Requests != nil {
			t.Errorf("run %d kept %d requests", i, len(got.Runs[i].Requests))
		}
		full.Runs[i].Requests = nil
	}
	if !reflect.DeepEqual(got, full) {
		t.Errorf("streamed file\n%+v\nwant\n%+v", got, full)
	}
}

// TestStreamOddButValidFiles: hand-written files Read accepts — keys in
// any order, unknown keys, keys in other cases or escaped, white space —
// are accepted alike, in the single pass.
func TestStreamOddButValidFiles(t *testing.T) {
	t.Parallel()
	const req = `{"ok": true, "ttft_ms": 1, "total_ms": 2, "itl_ms": [1, 2]}`
	const head = `"schema": "latgate/results/v1", "metrics_version": 2`
	dir := t.TempDir()
	for _, tt := range []struct{ name, body string }{
		{"requests before the keys", `{"runs": [{"requests": [` + req + `], "variant": "head", "scenario": "s", "endpoint": "e"}], ` + head + `}`},
		{"unknown keys", `{` + head + `, "later": {"runs": 1}, "runs": [{"scenario": "s", "endpoint": "e", "x": [1], "requests": [` + req + `]}]}`},
		{"keys in another case", `{` + head + `, "RUNS": [{"Scenario": "s", "ENDPOINT": "e", "requests": [{"OK": true, "TTFT_ms": 1, "total_ms": 2}]}]}`},
		{"requests in another case", `{` + head + `, "runs": [{"scenario": "s", "endpoint": "e", "Requests": [` + req + `]}]}`},
		{"escaped key", `{` + head + `, "run\u0073": [{"scenario": "s", "endpoint": "e", "requests": [` + req + `]}]}`},
		{"white space", "\n\t{ " + head + " ,\r\n\"runs\" :[ {\"scenario\":\"s\",\"endpoint\":\"e\",\"requests\":[ " + req + " ] } ] }\n\n"},
		{"requests null, incomplete", `{` + head + `, "incomplete": "cut", "runs": [{"scenario": "s", "endpoint": "e", "requests": null}]}`},
		{"itl_ms null", `{` + head + `, "runs": [{"scenario": "s", "endpoint": "e", "requests": [{"ok": false, "itl_ms": null}]}]}`},
		{"a browser run's API after its screenshots", `{` + head + `, "runs": [{"scenario": "s", "endpoint": "e", "requests": [` + shotRequest(t) + `], "fingerprint_parts": {"api": "browser"}}]}`},
		{"a request null", `{` + head + `, "runs": [{"scenario": "s", "endpoint": "e", "requests": [null, ` + req + `]}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, err, done := streamRegular(path, newKept); !done || err != nil {
				t.Errorf("left to Read (%v)", err)
			}
			agree(t, path)
		})
	}
}

// shotRequest is a request of a browser page with a screenshot, as JSON.
func shotRequest(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 48, 30)), nil); err != nil {
		t.Fatal(err)
	}
	q, err := json.Marshal(results.Request{Screenshots: []results.Screenshot{{At: vocab.End, JPEG: base64.StdEncoding.EncodeToString(b.Bytes())}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(q)
}

// TestStreamRefusesWhatReadRefuses: a malformed or hostile file gets
// Read's error, word for word, in its single pass (a "runs" given twice
// was read twice, streamed then read whole): only a file that is not JSON
// is left to Read, whose encoding/json says where.
func TestStreamRefusesWhatReadRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := Write(good, streamFiles()["sessions"]); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	const head = `{"schema": "latgate/results/v1", "metrics_version": 2, "runs": [{"scenario": "s", "endpoint": "e", `
	bodies := map[string]string{
		"empty":                     "",
		"truncated":                 text[:len(text)/2],
		"two documents":             text + "{}",
		"trailing garbage":          text + "x",
		"array":                     "[]",
		"syntax":                    "{\n  \"schema\": x}",
		"late syntax":               strings.Replace(text, `"status":429`, `"status":429,,`, 1),
		"type":                      strings.Replace(text, `"ttft_ms":120.5`, `"ttft_ms":"120.5"`, 1),
		"run type":                  strings.Replace(text, `"max_tokens":8`, `"max_tokens":"8"`, 1),
		"type then syntax":          strings.Replace(text, `"ttft_ms":120.5`, `"ttft_ms":true`, 1) + "]",
		"schema":                    strings.Replace(text, "latgate/results/v1", "latgate/results/v9", 1),
		"no schema":                 strings.Replace(text, `"schema"`, `"schemata"`, 1),
		"metrics version":           strings.Replace(text, `"metrics_version":2`, `"metrics_version":1`, 1),
		"no runs":                   `{"schema": "latgate/results/v1", "metrics_version": 2, "runs": []}`,
		"runs null":                 `{"schema": "latgate/results/v1", "metrics_version": 2, "runs": null}`,
		"no requests":               head + `"requests": []}]}`,
		"requests null":             head + `"requests": null}]}`,
		"negative time":             strings.Replace(text, `"total_ms":400.25`, `"total_ms":-1`, 1),
		"huge gap":                  strings.Replace(text, `"itl_ms":[9,`, `"itl_ms":[1e300,`, 1),
		"huge step time":            strings.Replace(text, `"start_ms":130`, `"start_ms":1e12`, 1),
		"steps disagree":            strings.Replace(text, `"step_count":2`, `"step_count":3`, 1),
		"ok without total":          head + `"requests": [{"ok": true, "ttft_ms": 1}]}]}`,
		"negative tokens":           strings.Replace(text, `"output_tokens":4`, `"output_tokens":-4`, 1),
		"run cost":                  head + `"cost_usd": 1e9, "requests": [{"ok": false}]}]}`,
		"file cost":                 strings.Replace(text, `"runs":`, `"cost_usd":-1,"runs":`, 1),
		"duplicate run":             head + `"requests": [{}]}, {"scenario": "s", "endpoint": "e", "requests": [{}]}]}`,
		"bad variant":               head + `"variant": "left", "requests": [{}]}]}`,
		"no scenario":               `{"schema": "latgate/results/v1", "metrics_version": 2, "runs": [{"endpoint": "e", "requests": [{}]}]}`,
		"run not object":            `{"schema": "latgate/results/v1", "metrics_version": 2, "runs": [null]}`,
		"runs twice":                head + `"requests": [{}]}], "runs": [{"scenario": "t", "endpoint": "e", "requests": [{}]}]}`,
		"runs in another case":      head + `"requests": [{}]}], "RUNS": [{"scenario": "t", "endpoint": "e", "requests": [{}]}]}`,
		"requests twice":            head + `"requests": [{}], "requests": [{}, {}]}]}`,
		"a request's key twice":     head + `"requests": [{"ok": true, "ttft_ms": 1, "total_ms": 2, "ttft_ms": 5}]}]}`,
		"a map's key twice":         head + `"fingerprint_parts": {"api": "browser", "api": "chat"}, "requests": [{}]}]}`,
		"requests of numbers":       head + `"requests": [0, 0, 0]}]}`,
		"a time not a time":         strings.Replace(text, `"created_at":"`, `"created_at":"x`, 1),
		"number too large":          strings.Replace(text, `"ttft_ms":120.5`, `"ttft_ms":1e400`, 1),
		"deep":                      head + `"x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `, "requests": [{}]}]}`,
		"screenshots on a chat run": head + `"requests": [{}, ` + shotRequest(t) + `], "fingerprint_parts": {"api": "realtime"}}]}`,
		"a progressive screenshot": head + `"fingerprint_parts": {"api": "browser"}, "requests": [` +
			strings.Replace(shotRequest(t), `"jpeg":"`, `"jpeg":"/9j/wgAL`, 1) + `]}]}`,
	}
	paths := map[string]string{"missing": filepath.Join(dir, "missing.json"), "folder": dir, "device": "/dev/zero"}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxFileSize+1); err != nil { // sparse
		t.Fatal(err)
	}
	paths["huge"] = huge
	for name, body := range bodies {
		paths[name] = filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		if err := os.WriteFile(paths[name], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notJSON := []string{"empty", "truncated", "two documents", "trailing garbage", "syntax", "late syntax", "missing", "folder", "device", "huge"}
	for name, path := range paths {
		_, want := Read(path)
		_, _, got := Stream(path, newKept)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: Stream: %v\nRead: %v", name, got, want)
		}
		if _, _, _, done := streamRegular(path, newKept); done == slices.Contains(notJSON, name) {
			t.Errorf("%s: decided in the single pass: %v", name, done)
		}
	}
}

// FuzzStream: whatever the bytes, the single pass accepts what Read
// accepts, with the same runs and requests, and refuses the rest with
// Read's words, or leaves it to Read (JSON that is not).
func FuzzStream(f *testing.F) {
	for _, file := range streamFiles() {
		b, err := json.Marshal(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"schema": "latgate/results/v1", "metrics_version": 2, "RUNS": [{"scenario": "s", "endpoint": "e", "requests": [{}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, folds, serr, done := streamFrom("f.json", bytes.NewReader(b), int64(len(b)), positionIn(b), newKept)
		full, err := Decode("f.json", b)
		switch {
		case !done && err == nil:
			t.Fatal("the single pass left to Read a file Read accepts")
		case !done:
			return
		case (serr == nil) != (err == nil) || err != nil && serr.Error() != err.Error():
			t.Fatalf("the single pass: %v\nRead: %v", serr, err)
		case err != nil:
			return
		}
		for i := range full.Runs {
			if want := full.Runs[i].Requests; len(want) > 0 && !reflect.DeepEqual(folds[i].requests, want) {
				t.Fatalf("run %d: the fold got %+v, want %+v", i, folds[i].requests, want)
			}
			full.Runs[i].Requests = nil
		}
		if !reflect.DeepEqual(got, full) {
			t.Fatalf("streamed file\n%+v\nwant\n%+v", got, full)
		}
	})
}
