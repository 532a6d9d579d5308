package fileio

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/trend"
	"github.com/latgate/latgate/vocab"
)

func trendFile() *trend.File {
	v := 402.5
	return &trend.File{Schema: trend.Schema, Repository: "https://github.com/acme/app", Runs: []trend.Run{{
		CreatedAt: time.Date(2026, 11, 30, 4, 31, 0, 0, time.UTC), GitSHA: "4f1c2e9", Event: "push", MetricsVersion: 2,
		Scenarios: []trend.Scenario{{Endpoint: "us-east", Scenario: "chat", Fingerprint: "sha256:a", Requests: 50,
			Values: []trend.Value{{Metric: vocab.TTFT, Stat: vocab.P50, Value: &v, N: 50}, {Metric: vocab.TTFT, Stat: vocab.P95, N: 30}}}},
	}}}
}

func TestTrendRoundTripsCompressed(t *testing.T) {
	path := filepath.Join(t.TempDir(), TrendName)
	f := trendFile()
	if err := WriteTrend(path, f); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !IsGzip(raw) {
		t.Fatal("the trend file is not gzip-compressed")
	}
	again, _ := EncodeTrend(f)
	if !bytes.Equal(raw, again) {
		t.Error("encoding the same trend twice gave different bytes")
	}
	got, err := ReadTrend(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("read back %+v, want %+v", got, f)
	}
	// A user may gunzip it: plain JSON reads too.
	zr, _ := gzip.NewReader(bytes.NewReader(raw))
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	if _, err := DecodeTrend("plain.json", plain.Bytes()); err != nil {
		t.Errorf("plain JSON: %v", err)
	}
}

func TestTrendRefusesBadFiles(t *testing.T) {
	// A small file that inflates past the bound is refused, not read whole.
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range MaxTrendSize>>20 + 1 {
		zw.Write(chunk)
	}
	zw.Close()
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"bomb":      {bomb.Bytes(), "once decompressed"},
		"results":   {[]byte(`{"schema": "latgate/results/v1", "runs": []}`), `schema is "latgate/results/v1"`},
		"truncated": {[]byte(`{"schema": "latgate/trend/v1", "runs": [`), "truncated"},
		"gzip junk": {[]byte{0x1f, 0x8b, 1, 2, 3}, "gzip"},
		"array":     {[]byte(`[1]`), "not a latgate trend file"},
	} {
		_, err := DecodeTrend(name, tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
}
