package report

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
)

// TestFormatsRegistry: the default first, then by name; an unknown name's
// error lists every format; a second format of a name or a second default
// is refused.
func TestFormatsRegistry(t *testing.T) {
	t.Parallel()
	for _, names := range [][]string{ReportFormats.Names(), TrendFormats.Names()} {
		if len(names) < 4 || names[0] != "text" || !slices.IsSorted(names[1:]) {
			t.Errorf("formats %v: want text (the default) first, then by name", names)
		}
	}
	if ReportFormats.Default().Name != "text" || TrendFormats.Default().Name != "text" {
		t.Errorf("defaults %q, %q; want text", ReportFormats.Default().Name, TrendFormats.Default().Name)
	}
	_, err := ReportFormats.Lookup("xml")
	if err == nil || !strings.Contains(err.Error(), strings.Join(ReportFormats.Names(), ", ")) || !strings.Contains(err.Error(), `"xml"`) {
		t.Errorf("unknown format: %v", err)
	}
	write := func(io.Writer, *Report, RenderOptions) error { return nil }
	fs := &Formats[*Report]{what: "test"}
	fs.Register(ReportFormat{Name: "a", Default: true, Write: write})
	for name, f := range map[string]ReportFormat{
		"the same name":    {Name: "a", Write: write},
		"a second default": {Name: "b", Default: true, Write: write},
		"no writer":        {Name: "c"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered", name)
				}
			}()
			fs.Register(f)
		}()
	}
}

// TestEveryRequestIsSaid: a format that says it draws every request renders
// a report built from the runs' digests alone differently; every other one
// renders it exactly as the report built from the requests.
func TestEveryRequestIsSaid(t *testing.T) {
	t.Parallel()
	base, cur := fixture()
	pairs := results.Match(base, cur)
	th := thresholds()
	res := compare.Compare(compare.Pairs(pairs), th)
	whole := Build(pairs, res, th)
	render := func(f ReportFormat, r *Report) string {
		var b bytes.Buffer
		if err := f.Write(&b, r, RenderOptions{}); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		return b.String()
	}
	want := map[string]string{}
	for _, f := range ReportFormats.All() {
		want[f.Name] = render(f, whole)
	}
	ds := DigestPairs(pairs)
	for _, f := range []*results.File{base, cur} {
		for i := range f.Runs {
			f.Runs[i].Requests = nil
		}
	}
	digested := BuildDigested(pairs, ds, res, th)
	for _, f := range ReportFormats.All() {
		if same := render(f, digested) == want[f.Name]; same == f.EveryRequest {
			t.Errorf("%s: EveryRequest %v, but the rendering without requests is the same: %v", f.Name, f.EveryRequest, same)
		}
	}
}
