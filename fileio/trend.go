package fileio

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/latgate/latgate/trend"
)

// TrendName is the trend file's name in a baseline folder and artifact:
// gzip-compressed JSON (schema latgate/trend/v1, docs/formats.md). Its name
// does not end in .json, so that a latgate that reads every .json file of
// a baseline artifact as a results file passes it by.
const TrendName = "latgate-trend.json.gz"

// MaxTrendSize bounds a trend file, compressed and once decompressed: 100
// runs of a 20-scenario suite are well under 1 MiB of JSON.
const MaxTrendSize = 64 << 20

// EncodeTrend is a trend file's bytes: compact JSON, gzip-compressed. The
// same file always gives the same bytes (the gzip header carries no time).
func EncodeTrend(f *trend.File) ([]byte, error) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := json.NewEncoder(zw).Encode(f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteTrend writes a trend file atomically.
func WriteTrend(path string, f *trend.File) error {
	b, err := EncodeTrend(f)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return WriteAtomic(path, b)
}

// ReadTrend reads and validates a trend file, compressed or not, at most
// MaxTrendSize bytes either way.
func ReadTrend(path string) (*trend.File, error) {
	b, err := ReadLimited(path, MaxTrendSize)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	return DecodeTrend(path, b)
}

// IsGzip reports whether b starts like a gzip stream.
func IsGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// DecodeTrend parses and validates a trend file's bytes (gzip-compressed
// or plain JSON); name is used in errors. Decompression stops at
// MaxTrendSize: a small file that inflates without end is refused.
func DecodeTrend(name string, b []byte) (*trend.File, error) {
	if len(b) > MaxTrendSize {
		return nil, fmt.Errorf("%s: larger than %s: too large to be a trend file", name, mib(MaxTrendSize))
	}
	if IsGzip(b) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: not a gzip stream: %v", name, err)
		}
		raw, err := io.ReadAll(io.LimitReader(zr, MaxTrendSize+1))
		if err != nil {
			return nil, fmt.Errorf("%s: damaged gzip stream: %v", name, err)
		}
		if len(raw) > MaxTrendSize {
			return nil, fmt.Errorf("%s: larger than %s once decompressed: too large to be a trend file", name, mib(MaxTrendSize))
		}
		b = raw
	}
	var f trend.File
	if err := unmarshal(name, b, &f, "trend"); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &f, nil
}
