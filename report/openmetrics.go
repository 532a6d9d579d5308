package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

func init() {
	ReportFormats.Register(ReportFormat{Name: "openmetrics", EveryRequest: true, Write: func(w io.Writer, r *Report, _ RenderOptions) error { return OpenMetrics(w, r) }})
}

// OpenMetrics writes the same metrics as OTLP in the OpenMetrics 1.0 text
// exposition, named as OpenTelemetry names them for Prometheus: dots
// become underscores and a unit becomes a suffix
// (gen_ai_client_operation_duration_seconds), a counter's sample ends in
// _total, the resource's attributes are the target_info labels. Each
// histogram has its cumulative buckets (le as a canonical number, +Inf
// last), _count and _sum; the text ends with # EOF.
func OpenMetrics(w io.Writer, r *Report) error {
	resAttrs, sets := otelData(r)
	ew := &errWriter{w: w}
	ew.printf("# TYPE target info\n# HELP target Target metadata\ntarget_info%s 1\n", promLabels(resAttrs, ""))
	for _, m := range otelMetrics {
		var points []otelHistogram
		for _, set := range sets {
			points = append(points, set.hists[m.name]...)
		}
		if len(points) == 0 {
			continue
		}
		ew.printf("# TYPE %s histogram\n", m.promName)
		if m.promUnit != "" {
			ew.printf("# UNIT %s %s\n", m.promName, m.promUnit)
		}
		ew.printf("# HELP %s %s\n", m.promName, promHelp(m.help))
		for _, p := range points {
			cum := uint64(0)
			for i, c := range p.counts {
				cum += c
				le := "+Inf"
				if i < len(m.bounds) {
					le = promFloat(m.bounds[i])
				}
				ew.printf("%s_bucket%s %d\n", m.promName, promLabels(p.attrs, le), cum)
			}
			ew.printf("%s_count%s %d\n", m.promName, promLabels(p.attrs, ""), p.count)
			ew.printf("%s_sum%s %s\n", m.promName, promLabels(p.attrs, ""), strconv.FormatFloat(p.sum, 'g', -1, 64))
		}
	}
	var counts []otelCount
	for _, set := range sets {
		counts = append(counts, set.counts...)
	}
	if len(counts) > 0 {
		ew.printf("# TYPE %s counter\n# HELP %s %s\n", otelRequests.promName, otelRequests.promName, promHelp(otelRequests.help))
		for _, c := range counts {
			ew.printf("%s_total%s %d\n", otelRequests.promName, promLabels(c.attrs, ""), c.n)
		}
	}
	ew.printf("# EOF\n")
	return ew.err
}

// promLabels is a label set: attribute keys with dots as underscores,
// values escaped, and le when given (a histogram bucket).
func promLabels(attrs []otelAttr, le string) string {
	var parts []string
	for _, a := range attrs {
		v := a.str
		if a.isInt {
			v = strconv.FormatInt(a.num, 10)
		}
		parts = append(parts, fmt.Sprintf(`%s="%s"`, promName(a.key), promEscape(v)))
	}
	if le != "" {
		parts = append(parts, `le="`+le+`"`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// promName is an attribute key as a label name: every character outside
// [a-zA-Z0-9_] becomes an underscore.
func promName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// promEscape escapes a label value: backslash, double quote, line feed.
func promEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// promHelp escapes a HELP text: backslash and line feed.
func promHelp(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

// promFloat is a bucket bound as OpenMetrics' canonical number: 0.01,
// 1.0, 67108864.0.
func promFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
