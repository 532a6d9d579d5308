package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/latgate/latgate/compare"
)

// RenderOptions shape a rendering: Color for text on a terminal, Markdown
// for the Markdown renderer; each format reads what concerns it.
type RenderOptions struct {
	Color    bool
	Markdown MarkdownOptions
}

// Format is one rendering of a document (a *Report or a *Trend). Each
// renderer's file registers its format (Formats.Register, in an init); the
// flag's help, validation and completion read the registry, and no other
// list names the formats.
type Format[T any] struct {
	Name string
	// Default is the format a command prints when none is asked for (one
	// per registry).
	Default bool
	// EveryRequest: the rendering draws the runs' per-request values, so a
	// report built from the runs' digests alone (results files streamed,
	// BuildDigested) cannot be rendered in it, and the files are read whole.
	EveryRequest bool
	// Write renders doc.
	Write func(w io.Writer, doc T, o RenderOptions) error
	// Noise writes an A/A run's noise checks after the report; nil: the
	// format shows none (reports only).
	Noise func(w io.Writer, checks []compare.NoiseCheck)
}

// ReportFormat and TrendFormat are the formats of a comparison's report
// (latgate compare, ab) and of main's trend (latgate trend).
type (
	ReportFormat = Format[*Report]
	TrendFormat  = Format[*Trend]
)

// Formats is the registry of one kind of document's formats.
type Formats[T any] struct {
	what   string
	byName map[string]Format[T]
}

// The registries: ReportFormats for reports, TrendFormats for trends.
var (
	ReportFormats = &Formats[*Report]{what: "report"}
	TrendFormats  = &Formats[*Trend]{what: "trend"}
)

// Register adds a format; a second format of the same name, a second
// default or a format that cannot write is a programming error (panic).
func (fs *Formats[T]) Register(f Format[T]) {
	switch _, dup := fs.byName[f.Name]; {
	case f.Name == "" || f.Write == nil:
		panic(fmt.Sprintf("report: %s format %q registered without a name or a writer", fs.what, f.Name))
	case dup:
		panic(fmt.Sprintf("report: %s format %q registered twice", fs.what, f.Name))
	case f.Default && slices.ContainsFunc(fs.All(), func(g Format[T]) bool { return g.Default }):
		panic(fmt.Sprintf("report: %s format %q: a second default", fs.what, f.Name))
	}
	if fs.byName == nil {
		fs.byName = map[string]Format[T]{}
	}
	fs.byName[f.Name] = f
}

// All are the formats, the default first, then by name.
func (fs *Formats[T]) All() []Format[T] {
	out := make([]Format[T], 0, len(fs.byName))
	for _, f := range fs.byName {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Format[T]) int {
		if a.Default != b.Default {
			if a.Default {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Names are the formats' names, in the order of All.
func (fs *Formats[T]) Names() []string {
	var out []string
	for _, f := range fs.All() {
		out = append(out, f.Name)
	}
	return out
}

// Default is the format printed when none is asked for.
func (fs *Formats[T]) Default() Format[T] {
	for _, f := range fs.byName {
		if f.Default {
			return f
		}
	}
	panic("report: no default " + fs.what + " format registered")
}

// Lookup finds a format by name; the error lists the formats there are.
func (fs *Formats[T]) Lookup(name string) (Format[T], error) {
	if f, ok := fs.byName[name]; ok {
		return f, nil
	}
	return Format[T]{}, fmt.Errorf("want one of %s, got %q", strings.Join(fs.Names(), ", "), name)
}
