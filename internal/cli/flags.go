package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Choices is a flag value that takes one of a few words; the shells
// complete them.
type Choices interface{ Choices() []string }

// List is a repeatable string flag.
type List struct{ V *[]string }

func (l List) String() string {
	if l.V == nil {
		return ""
	}
	return strings.Join(*l.V, ",")
}

// Set adds a value.
func (l List) Set(s string) error { *l.V = append(*l.V, s); return nil }

// Words is a string flag whose value is one of a few words, checked where
// the value is used; the shells complete them.
type Words struct {
	V     *string
	Words []string
}

func (w Words) String() string {
	if w.V == nil {
		return ""
	}
	return *w.V
}

// Set keeps the value.
func (w Words) Set(s string) error { *w.V = s; return nil }

// Choices are the words.
func (w Words) Choices() []string { return w.Words }

// Bool is a real boolean flag (--dry-run, --dry-run=false) that keeps its
// text, so that something else can fill it when it is absent; Words are
// other values it takes (--comment=required).
type Bool struct {
	V     *string
	Words []string
}

func (b Bool) String() string {
	if b.V == nil {
		return ""
	}
	return *b.V
}

// Set takes a boolean or one of the words.
func (b Bool) Set(s string) error {
	if _, err := strconv.ParseBool(s); err != nil && !slices.Contains(b.Words, s) {
		return fmt.Errorf("want %s, got %q", OrList(append([]string{"true", "false"}, b.Words...)), s)
	}
	*b.V = s
	return nil
}

// IsBoolFlag makes the flag package take --name alone as true.
func (b Bool) IsBoolFlag() bool { return true }

// OrList is "a, b or c".
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
