package jsonerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	type doc struct {
		N int `json:"n"`
	}
	tests := []struct {
		data             string
		kind             Kind
		line, col        int
		field, value     string
		decoderTruncates bool // a json.Decoder says io.ErrUnexpectedEOF
	}{
		{" \n\t", Empty, 0, 0, "", "", false},
		{`{"n": 1`, Truncated, 1, 7, "", "", true},
		{"{\n  \"n\": x}", Syntax, 2, 8, "", "", false},
		{"{\n  \"n\": \"one\"}", Type, 2, 13, "n", "string", false},
		{`[1]`, Type, 1, 2, "", "array", false},
	}
	for _, tt := range tests {
		var d doc
		e := Of([]byte(tt.data), json.Unmarshal([]byte(tt.data), &d))
		if e.Kind != tt.kind || e.Kind != Empty && (e.Line != tt.line || e.Col != tt.col) || e.Field != tt.field || e.Value != tt.value {
			t.Errorf("%q: %+v; want kind %d at %d:%d, field %q, value %q", tt.data, e, tt.kind, tt.line, tt.col, tt.field, tt.value)
		}
		if tt.decoderTruncates {
			err := json.NewDecoder(strings.NewReader(tt.data)).Decode(&d)
			if e := Of([]byte(tt.data), err); e.Kind != Truncated {
				t.Errorf("%q through a Decoder (%v): kind %d, want Truncated", tt.data, err, e.Kind)
			}
		}
	}
	if e := Of([]byte("{}"), errors.New("disk on fire")); e.Kind != Other || e.Err.Error() != "disk on fire" {
		t.Errorf("another error: %+v", e)
	}
}
