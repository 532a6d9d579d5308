package suite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// metricNameRE is a Prometheus metric family's name.
var metricNameRE = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// MaxMetricsURLs bounds an endpoint's metrics pages.
const MaxMetricsURLs = 4

// endpointMetrics reads an endpoint's metrics_url (an http(s) URL, or a
// list of at most MaxMetricsURLs: the engine's page, a GPU exporter's;
// ${VAR} allowed; its key goes only to a page on the endpoint's own
// origin) and metrics_names (which needs a metrics_url).
func (p *parser) endpointMetrics(ip string, e *Endpoint, re rawEndpoint) {
	if re.MetricsURL == nil || len(re.MetricsURL.List) == 0 {
		if re.MetricsNames != nil {
			p.errf(p.line(ip+".metrics_names"), "endpoint %q: metrics_names needs metrics_url (the server's Prometheus page, such as http://127.0.0.1:8000/metrics)", e.Name)
		}
		return
	}
	if n := len(re.MetricsURL.List); n > MaxMetricsURLs {
		p.errf(p.line(ip+".metrics_url"), "endpoint %q: metrics_url lists %d pages, at most %d (the engine's and a GPU exporter's)", e.Name, n, MaxMetricsURLs)
		return
	}
	for i, raw := range re.MetricsURL.List {
		ipi, key := ip+".metrics_url", "metrics_url"
		if re.MetricsURL.Seq {
			ipi, key = fmt.Sprintf("%s.metrics_url[%d]", ip, i), fmt.Sprintf("metrics_url[%d]", i)
		}
		v, secrets := p.expand(ipi, e.Name, key, raw)
		e.envSecrets = append(e.envSecrets, secrets...)
		if !urlOK(raw, v, p.opt.SkipKeys) {
			p.errf(p.line(ipi), "endpoint %q: %s %q is not an http(s) URL (the server's Prometheus page, such as http://127.0.0.1:8000/metrics)", e.Name, key, raw)
			return
		}
		if slices.Contains(e.MetricsURLs, v) {
			p.errf(p.line(ipi), "endpoint %q: %s %q is listed twice", e.Name, key, raw)
			return
		}
		e.MetricsURLs = append(e.MetricsURLs, v)
	}
	if n := re.MetricsNames; n != nil {
		e.MetricsNames = &MetricsNames{}
		for _, f := range []struct {
			key  string
			from []string
			to   *[]string
		}{{"queue", n.Queue, &e.MetricsNames.Queue}, {"prefill", n.Prefill, &e.MetricsNames.Prefill}, {"decode", n.Decode, &e.MetricsNames.Decode},
			{"ttft", n.TTFT, &e.MetricsNames.TTFT}, {"waiting", n.Waiting, &e.MetricsNames.Waiting}, {"kv_cache", n.KVCache, &e.MetricsNames.KVCache}} {
			for _, name := range f.from {
				if !metricNameRE.MatchString(name) {
					p.errf(p.line(ip+".metrics_names."+f.key), "endpoint %q: metrics_names.%s: %q is not a Prometheus metric name (letters, digits, _ and :)", e.Name, f.key, clipName(name))
					continue
				}
				*f.to = append(*f.to, name)
			}
		}
	}
}

// clipName shortens a name for a message.
func clipName(s string) string {
	if len(s) > 60 {
		return strings.ToValidUTF8(s[:60], "") + "…"
	}
	return s
}
