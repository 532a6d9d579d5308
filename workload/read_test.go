package workload

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// readAll reads a trace to its entries and skipped lines.
func readAll(t *testing.T, name, content, format string) ([]Entry, []int, string, error) {
	t.Helper()
	var es []Entry
	var skipped []int
	got, err := read(strings.NewReader(content), name, format, func(e Entry) error {
		es = append(es, e)
		return nil
	}, func(l int) { skipped = append(skipped, l) })
	return es, skipped, got, err
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// epoch is a wall-clock time as a reader gives it.
func epoch(s string) time.Duration {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.Sub(time.Unix(0, 0))
}

// TestReadFixtures: each format's fixture, written from its documented
// fields, reads to the exact entries, and is detected as its format.
func TestReadFixtures(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		file, format string
		want         []Entry
		skipped      []int
	}{
		{"mooncake.jsonl", "mooncake", []Entry{
			{Line: 1, At: 0, Input: 1200, Output: 80, Hashes: []uint64{0, 1, 2}},
			{Line: 2, At: 250 * ms, Input: 1900, Output: 12, Hashes: []uint64{0, 1, 3, 4}, Session: "chat-7"},
			{Line: 4, At: 1500500 * time.Microsecond, Input: 300, Output: 0, Hashes: []uint64{9}, Session: "42"},
		}, nil},
		{"azure2023.csv", "azure", []Entry{
			{Line: 2, At: epoch("2023-11-16T18:15:46.68059Z"), Input: 374, Output: 44},
			{Line: 3, At: epoch("2023-11-16T18:15:50Z"), Input: 2048, Output: 109},
			{Line: 4, At: epoch("2023-11-16T18:15:49.1234567Z"), Input: 879, Output: 0},
		}, nil},
		{"azure2024.csv", "azure", []Entry{
			{Line: 2, At: epoch("2024-05-10T00:00:00.00993Z"), Input: 4808, Output: 10},
			{Line: 3, At: epoch("2024-05-10T00:00:01Z"), Input: 512, Output: 250},
		}, nil},
		{"burstgpt.csv", "burstgpt", []Entry{
			{Line: 2, At: 3 * time.Second, Input: 212, Output: 35},
			{Line: 4, At: 97 * time.Second, Input: 640, Output: 411},
		}, []int{3}},
		{"burstgpt_sessions.csv", "burstgpt", []Entry{
			{Line: 2, At: 1500 * ms, Input: 100, Output: 20, Session: "s-1"},
			{Line: 3, At: 4250 * ms, Input: 180, Output: 30, Session: "s-1"},
		}, nil},
		{"otlp.jsonl", "otlp", []Entry{
			{Line: 1, At: 1700000000 * time.Second, Input: 1024, Output: 64, Session: "conv-1"},
			{Line: 2, At: 1700000002500 * ms, Input: 300, Output: 12},
		}, []int{1}},
		{"otlp.json", "otlp", []Entry{
			{Line: 13, At: 1700000005 * time.Second, Input: 2000, Output: 100},
			{Line: 26, At: 1700000004 * time.Second, Input: 700, Session: "99"},
		}, []int{21}},
		{"latgate.json", "latgate", []Entry{
			{Line: 1, At: 0, Input: 100, Output: 64},
			{Line: 2, At: 250500 * time.Microsecond, Input: 120, Output: 60},
			{Line: 5, At: 350500 * time.Microsecond, Input: 4000, Output: 32},
		}, []int{4}},
	} {
		for _, format := range []string{c.format, ""} {
			es, skipped, got, err := readAll(t, c.file, fixture(t, c.file), format)
			if err != nil {
				t.Fatalf("%s (format %q): %v", c.file, format, err)
			}
			if got != c.format {
				t.Errorf("%s: read as %q, want %q", c.file, got, c.format)
			}
			if !reflect.DeepEqual(es, c.want) || !reflect.DeepEqual(skipped, c.skipped) {
				t.Errorf("%s (format %q):\n got %+v skipped %v\nwant %+v skipped %v", c.file, format, es, skipped, c.want, c.skipped)
			}
		}
	}
}

// TestReadFormat: an unknown format names the known ones; a format that
// is not the file's, or a file of no format, is an *Error at line 1.
func TestReadFormat(t *testing.T) {
	_, _, _, err := readAll(t, "t.jsonl", fixture(t, "mooncake.jsonl"), "sharegpt")
	if err == nil || err.Error() != `unknown trace format "sharegpt": latgate reads azure, burstgpt, latgate, mooncake, otlp` {
		t.Errorf("unknown format: %v", err)
	}
	for _, c := range []struct{ content, format, want string }{
		{fixture(t, "mooncake.jsonl"), "azure", "t:1: not an azure trace: it begins like a mooncake trace (workload.format)"},
		{fixture(t, "azure2023.csv"), "burstgpt", "t:1: not a burstgpt trace: it begins like an azure trace (workload.format)"},
		{"a,b,c\n1,2,3\n", "", "t:1: not a trace latgate recognizes (azure, burstgpt, latgate, mooncake, otlp; docs/formats.md): give workload.format"},
		{"a,b,c\n1,2,3\n", "azure", `t:1: header: no column "TIMESTAMP" (the header holds "a,b,c")`},
		{"  \n", "", "t: empty: no trace to read"},
		{"TIMESTAMP,ContextTokens,GeneratedTokens,Request tokens,Response tokens\n", "", "t:1: begins like a trace of each of azure, burstgpt: give workload.format"},
	} {
		_, _, _, err := readAll(t, "t", c.content, c.format)
		var we *Error
		if !errors.As(err, &we) || err.Error() != c.want {
			t.Errorf("format %q: %v, want *Error %q", c.format, err, c.want)
		}
	}
}

// TestReadBadLines: every kind of bad line is an *Error naming the file,
// the line and the field.
func TestReadBadLines(t *testing.T) {
	const az = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n"
	const bg = "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n3,ChatGPT,212,35,247,Conversation log\n"
	mc := func(s string) string { return `{"timestamp":0,"input_length":10,"output_length":1}` + "\n" + s + "\n" }
	long := strings.Repeat("9", MaxLine)
	ids := "[" + strings.Repeat("1,", MaxHashes) + "1]"
	otlp := func(attrs, start string) string {
		return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + "\n" + `{"startTimeUnixNano":` + start + `,"attributes":[` + attrs + `]}]}]}]}`
	}
	in := func(v string) string { return `{"key":"gen_ai.usage.input_tokens","value":` + v + `}` }
	lg := func(req string) string {
		return `{"schema":"latgate/results/v1","runs":[{"variant":"base","requests":[{"sent_ms":0,"prompt_tokens":5,"output_tokens":1},` + req + `]}]}`
	}
	for _, c := range []struct{ format, content, want string }{
		{"mooncake", mc(`{"timestamp":5,"input_length":-3,"output_length":1}`), "t:2: input_length: -3 is negative: a length is at least 0"},
		{"mooncake", mc(`{"timestamp":5,"output_length":1}`), "t:2: input_length: missing"},
		{"mooncake", mc(`{"timestamp":5,"input_length":"12","output_length":1}`), "t:2: input_length: a JSON string where a whole number is wanted"},
		{"mooncake", mc(`{"timestamp":-1,"input_length":1,"output_length":1}`), "t:2: timestamp: -1 is negative: a time is from the trace's start"},
		{"mooncake", mc(`{"timestamp":1,"input_length":1,"output_length":20000000}`), "t:2: output_length: 2e+07 is more than 2000000 tokens"},
		{"mooncake", mc(`{"timestamp":1,"input_length":1,"output_length":1,"hash_ids":[-4]}`), "t:2: hash_ids: a JSON number -4 where a list of whole numbers ≥ 0 is wanted"},
		{"mooncake", mc(`{"timestamp":1,"input_length":1,"output_length":1,"hash_ids":[1,2]}`), "t:2: hash_ids: 2 blocks for 1 input tokens: a block holds at least one token"},
		{"mooncake", mc(`{"timestamp":1,"input_length":1900000,"output_length":1,"hash_ids":` + ids + `}`), "t:2: hash_ids: 100001 blocks: an entry holds at most 100000"},
		{"mooncake", mc(`{"timestamp":1,"input_length":1,"output_length":1,"session_id":[1]}`), "t:2: session_id: [1]: a session id is a string or a whole number"},
		{"mooncake", mc(`{"timestamp":1,`), "t:2: not a JSON object: unexpected end of JSON input"},
		{"mooncake", mc(long), "t:2: longer than 1048576 bytes: a line of a trace is at most that"},
		{"azure", az + "2023-11-16 18:15:47,12\n", "t:3: 2 columns, but the header has 3"},
		{"azure", az + "2023-11-16 18:15:47,twelve,1\n", `t:3: ContextTokens: "twelve" is not a whole number`},
		{"azure", az + "2023-11-16 18:15:47,-5,1\n", "t:3: ContextTokens: -5 is negative: a length is at least 0"},
		{"azure", az + "16/11/2023 18:15,5,1\n", `t:3: TIMESTAMP: "16/11/2023 18:15" is not a time like 2023-11-16 18:15:46.6805900`},
		{"azure", az + "1969-12-31 23:59:59,5,1\n", "t:3: TIMESTAMP: before 1970 or after 2169"},
		{"azure", az + `2023-11-16 18:15:47,"5"",1` + "\n", "t:3: a quote inside a field: traces' CSV fields hold no comma or quote of their own"},
		{"burstgpt", bg + "x,ChatGPT,1,1,2,API log\n", `t:3: Timestamp: "x" is not a number of seconds`},
		{"burstgpt", bg + "4,ChatGPT,1,,2,API log\n", "t:3: Response tokens: missing"},
		{"otlp", otlp(in(`{"intValue":"-2"}`), `"5"`), "t:2: gen_ai.usage.input_tokens: -2 is negative: a length is at least 0"},
		{"otlp", otlp(in(`{"stringValue":"many"}`), `"5"`), `t:2: gen_ai.usage.input_tokens: "many" is not a number`},
		{"otlp", otlp(in(`{"intValue":"7"}`), `"0"`), "t:2: startTimeUnixNano: 0: the span's start is not set"},
		{"otlp", otlp(in(`{"intValue":"7"}`), `"soon"`), `t:2: startTimeUnixNano: "soon" is not a whole number of nanoseconds`},
		{"otlp", `{"resourceSpans":[{"scopeSpans":[{"spans":[` + "\n" + `{"startTimeUnixNano":"5","attributes":[` + in(`{"intValue":"7"}`) + `]},` + "\n" + `{"x":tru}]}]}]}`, "t:3: invalid JSON: invalid character '}' in literal true (expecting 'e')"},
		{"otlp", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"` + strings.Repeat("1", MaxValue+1) + `"}]}]}]}`, "t:1: a string longer than 8388608 bytes"},
		{"otlp", `{"resourceSpans":` + strings.Repeat("[", MaxDepth) + `]}`, "t:1: JSON nested deeper than 64 levels"},
		{"otlp", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"5"`, "t:1: ends in the middle of a JSON value"},
		{"otlp", `{"resourceSpans":{"x":1}}`, "t:1: resourceSpans: an object where a list is wanted"},
		{"latgate", lg(`{"sent_ms":-5,"prompt_tokens":5,"output_tokens":1}`), "t:2: sent_ms: -5 is negative: a time is from the trace's start"},
		{"latgate", lg(`{"sent_ms":5,"output_tokens":1}`), "t:2: prompt_tokens: missing or not a number"},
		{"latgate", lg(`{"sent_ms":5,"prompt_tokens":1.5,"output_tokens":1}`), "t:2: prompt_tokens: 1.5 is not a whole number"},
		{"latgate", `{"schema":"latgate/results/v2","runs":[]}`, "t:1: schema: latgate/results/v2: latgate reads traces from latgate/results/v1 files"},
		{"latgate", `{"schema":"latgate/results/v1","runs":[{"requests":[{"sent_ms":1,"prompt_tokens":5,"output_tokens":1}],"variant":"head"}]}`, "t:1: variant: after the run's requests: not a file latgate wrote"},
	} {
		_, _, _, err := readAll(t, "t", c.content, c.format)
		var we *Error
		if !errors.As(err, &we) || err.Error() != c.want {
			t.Errorf("%s %.60q:\n got %v\nwant *Error %s", c.format, c.content, err, c.want)
		}
	}
}

// TestReadRecordBound: past MaxRecords, reading stops at the line.
func TestReadRecordBound(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("10 M records (not under the race detector: minutes)")
	}
	r := io.MultiReader(strings.NewReader("Timestamp,Request tokens,Response tokens\n"), &repeatReader{line: []byte("1,2,0\n")})
	_, err := read(r, "t", "", func(Entry) error { return nil }, func(int) {})
	if err == nil || err.Error() != "t:10000002: more than 10000000 records: a trace latgate reads holds at most that" {
		t.Errorf("got %v", err)
	}
}

// repeatReader repeats a line without end.
type repeatReader struct {
	line []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// TestErrorsQuoteLittle: an error quotes at most a clip of what the
// trace holds, however long: a CSV header, a latgate file's schema, a
// Mooncake number (a line of 1 MiB, a value of 8 MiB quoted whole before).
func TestErrorsQuoteLittle(t *testing.T) {
	long := strings.Repeat("7", 500_000)
	for _, c := range []struct{ format, text string }{
		{"azure", strings.Repeat("col,", 200_000) + "x\n1,2,3\n"},
		{"latgate", `{"schema": "` + long + `", "runs": []}`},
		{"mooncake", `{"timestamp": 1, "input_length": ` + long + `, "output_length": 1}` + "\n"},
	} {
		_, err := Read(strings.NewReader(c.text), "t", c.format, func(Entry) error { return nil })
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%s: error of %d bytes (%.80s…), want a short one", c.format, len(fmt.Sprint(err)), fmt.Sprint(err))
		}
	}
}
