package sim

import (
	"math"
	"net/http"
	"slices"
	"sort"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// metrics serves the engine's Prometheus page in vLLM's names: the queue,
// prefill, decode, end-to-end and TTFT histograms of the answers served so
// far, and the requests waiting and running and the KV-cache usage now.
func (s *Server) metrics(w http.ResponseWriter) {
	waiting, running, kv := s.load()
	e := &s.stats
	e.mu.Lock()
	fams := []*dto.MetricFamily{
		gaugeFamily("vllm:num_requests_waiting", "Number of requests waiting to be processed.", float64(waiting)),
		gaugeFamily("vllm:num_requests_running", "Number of requests in model execution batches.", float64(running)),
		gaugeFamily("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", kv),
	}
	names := make([]string, 0, len(e.hists))
	for n := range e.hists {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fams = append(fams, histogramFamily(n, e.hists[n]))
	}
	fams = append(fams, e.spec.families()...)
	e.mu.Unlock()
	w.Header().Set("Content-Type", string(expfmt.NewFormat(expfmt.TypeTextPlain)))
	for _, f := range fams {
		if _, err := expfmt.MetricFamilyToText(w, f); err != nil {
			return
		}
	}
}

var simLabels = []*dto.LabelPair{{Name: proto.String("engine"), Value: proto.String("0")}, {Name: proto.String("model_name"), Value: proto.String("sim")}}

func gaugeFamily(name, help string, v float64) *dto.MetricFamily {
	return &dto.MetricFamily{Name: proto.String(name), Help: proto.String(help), Type: dto.MetricType_GAUGE.Enum(),
		Metric: []*dto.Metric{{Label: simLabels, Gauge: &dto.Gauge{Value: proto.Float64(v)}}}}
}

func histogramFamily(name string, h *simHistogram) *dto.MetricFamily {
	dh := &dto.Histogram{SampleCount: proto.Uint64(h.n), SampleSum: proto.Float64(h.sum)}
	var cum uint64
	for i, b := range slices.Concat(h.bounds, []float64{math.Inf(1)}) {
		cum += h.counts[i]
		if !math.IsInf(b, 1) {
			dh.Bucket = append(dh.Bucket, &dto.Bucket{UpperBound: proto.Float64(b), CumulativeCount: proto.Uint64(cum)})
		}
	}
	return &dto.MetricFamily{Name: proto.String(name), Help: proto.String("Histogram of " + name + "."), Type: dto.MetricType_HISTOGRAM.Enum(),
		Metric: []*dto.Metric{{Label: simLabels, Histogram: dh}}}
}
