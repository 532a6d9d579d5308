package gate

import (
	"fmt"

	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// RunWarnings are what a results file says about how it was measured that
// a reader must know: streams that arrived buffered, open-loop schedules
// the client could not keep (coordinated omission), events of unknown
// types, and where an adaptive scenario stopped and why.
func RunWarnings(f *results.File) []string {
	var w []string
	for _, r := range f.Runs {
		name := report.Name(r.Scenario) + " @ " + report.Name(r.Endpoint)
		if r.Variant != "" {
			name += " (" + string(r.Variant) + ")"
		}
		ok, buffered, late, unknown := 0, 0, 0, 0
		for _, q := range r.Requests {
			unknown += q.UnknownEvents
			if !q.OK {
				continue
			}
			ok++
			if q.Buffered {
				buffered++
			}
			if q.LagMs != nil && *q.LagMs > 100 {
				late++
			}
		}
		if r.BufferedMostly() {
			w = append(w, fmt.Sprintf("%s: %d of %d streams arrived buffered (the output came all at once after the wait): something between the model and the client holds the output: a proxy or gateway (nginx proxy_buffering, a CDN or API gateway, compression middleware), or the server itself (a writer it does not flush after each event, or Nagle's algorithm coalescing its small writes: set TCP_NODELAY) — users see the answer in bursts instead of a stream", name, buffered, ok))
		}
		if r.RequestsMin > 0 && r.StoppedAt > 0 && (r.Variant == "" || r.Variant == vocab.Head) {
			w = append(w, fmt.Sprintf("%s: adaptive: stopped at %d of %d requests: %s", report.Name(r.Scenario)+" @ "+report.Name(r.Endpoint), r.StoppedAt, r.Config.Requests, report.Name(r.StopReason)))
		}
		if unknown > 0 {
			w = append(w, fmt.Sprintf("%s: the server sent %d events of types latgate does not know: ignored; if one of them carries the answer, its TTFT is measured late (docs/metrics.md, realtime)", name, unknown))
		}
		if ok > 0 && late*10 >= ok {
			w = append(w, fmt.Sprintf("%s: %d of %d requests were sent more than 100 ms behind their open-loop schedule: the client could not keep the rate (raise max_in_flight or lower rate); latencies under that load are understated", name, late, ok))
		}
	}
	return w
}
