package suite

import (
	"regexp"
	"strings"
)

// metricNameRE is a Prometheus metric family's name.
var metricNameRE = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// endpointMetrics reads an endpoint's metrics_url (an http(s) URL, ${VAR}
// allowed; its key goes only to a page on the endpoint's own origin) and
// metrics_names (which needs a metrics_url).
func (p *parser) endpointMetrics(ip string, e *Endpoint, re rawEndpoint) {
	if re.MetricsURL == "" {
		if re.MetricsNames != nil {
			p.errf(p.line(ip+".metrics_names"), "endpoint %q: metrics_names needs metrics_url (the server's Prometheus page, such as http://127.0.0.1:8000/metrics)", e.Name)
		}
		return
	}
	kl := p.line(ip + ".metrics_url")
	v, secrets := p.expand(ip+".metrics_url", e.Name, "metrics_url", re.MetricsURL)
	e.envSecrets = append(e.envSecrets, secrets...)
	if !urlOK(re.MetricsURL, v, p.opt.SkipKeys) {
		p.errf(kl, "endpoint %q: metrics_url %q is not an http(s) URL (the server's Prometheus page, such as http://127.0.0.1:8000/metrics)", e.Name, re.MetricsURL)
		return
	}
	e.MetricsURL = v
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
