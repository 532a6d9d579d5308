package scrape

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// GPU telemetry: NVIDIA's dcgm-exporter gives each GPU's gauges as series
// of one family, a series per GPU (names.go cites the commit read). A GPU
// family is read GPU by GPU, each known by what identifies it across
// hosts: its UUID label (uuid with the exporter's old namespace), else
// its host and index (hostname, or Hostname before the exporter's
// d5e5f510, and gpu); a MIG instance adds its GPU_I_ID. At most MaxGPUs
// GPUs of a page are read (the rest counted in one warning), and a value
// no GPU gives (negative, over its family's bound, not a number) is left
// out with one warning a family.

// MaxGPUs bounds the GPUs read of a page, and of a run.
const MaxGPUs = 64

// maxGPUText bounds a GPU's identity and model name as kept.
const maxGPUText = 80

// gpuBounds is the largest value of each GPU family kind: utilization in
// percent, framebuffer memory in MiB (1 TiB), power in watts (a B200 draws
// 1 kW).
var gpuBounds = map[famKind]struct {
	max  float64
	unit string
}{gpuUtilKind: {100, "%"}, gpuMemKind: {1 << 20, "MiB"}, gpuPowerKind: {5000, "W"}}

// gpuLabels are the labels of a GPU series that say which GPU it is.
type gpuLabels struct{ uuid, host, index, instance, model string }

// set keeps a label of a GPU series, clipped.
func (l *gpuLabels) set(name, value string) {
	value = clipText(value)
	switch name {
	case "UUID", "uuid":
		l.uuid = value
	case "hostname", "Hostname":
		l.host = value
	case "gpu":
		l.index = value
	case "GPU_I_ID":
		l.instance = value
	case "modelName":
		l.model = value
	}
}

// clipText is s cut to maxGPUText bytes of valid UTF-8, a copy: a cut
// alone would keep the whole label it was cut from.
func clipText(s string) string {
	if len(s) > maxGPUText {
		s = s[:maxGPUText]
	}
	return strings.Clone(strings.ToValidUTF8(s, ""))
}

// id is what identifies the GPU across hosts.
func (l gpuLabels) id() string {
	id := l.uuid
	if id == "" {
		id = "gpu " + l.index
		if l.host != "" {
			id = l.host + " " + id
		}
	}
	if l.instance != "" {
		id += " MIG " + l.instance
	}
	return id
}

// gpuValue is one GPU's value on a page, and what sorts it.
type gpuValue struct {
	v                  float64
	model, host, index string
}

// gpuFamily is a GPU family on a page: its GPUs by identity.
type gpuFamily map[string]gpuValue

// gpuFold is a GPU family as its series come: the GPUs read, those over
// MaxGPUs, and the values left out.
type gpuFold struct {
	kind   famKind
	gpus   gpuFamily
	more   int    // GPUs beyond MaxGPUs
	absurd int    // values left out
	first  string // the first left out, said
}

// gpuSeries adds one GPU's series: its gauge's value, or in an untyped
// family its untyped value. A GPU beyond MaxGPUs is counted; a value out
// of the family's bounds is left out.
func (f *family) gpuSeries(l gpuLabels, gauge, untyped float64) {
	if f.why != "" {
		return
	}
	v := gauge
	if f.typ == dto.MetricType_UNTYPED {
		v = untyped
	}
	g, id := f.gpu, l.id()
	if b := gpuBounds[g.kind]; !(v >= 0 && v <= b.max) {
		g.absurd++
		if g.first == "" {
			g.first = fmt.Sprintf("%s of %s is %v, not from 0 to %s %s", f.name, id, v, strconv.FormatFloat(b.max, 'f', -1, 64), b.unit)
		}
		return
	}
	f.n++
	if old, ok := g.gpus[id]; ok {
		old.v = max(old.v, v) // a GPU given twice: its larger value
		g.gpus[id] = old
		return
	}
	if len(g.gpus) == MaxGPUs {
		g.more++
		return
	}
	g.gpus[id] = gpuValue{v: v, model: l.model, host: l.host, index: l.index}
}

// putGPUs puts a GPU family on the page, and says in one warning what it
// left out.
func (f *family) putGPUs(p *Page) string {
	g := f.gpu
	if len(g.gpus) > 0 {
		if p.gpus == nil {
			p.gpus = map[string]gpuFamily{}
		}
		p.gpus[f.name] = g.gpus
	}
	var parts []string
	if g.more > 0 {
		parts = append(parts, fmt.Sprintf("%s has %d GPUs more than the %d read", f.name, g.more, MaxGPUs))
	}
	if g.absurd > 0 {
		w := g.first + ": left out"
		if g.absurd > 1 {
			w += fmt.Sprintf(" (and %d more values)", g.absurd-1)
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, "; ")
}

// GPU is one GPU over a run's samples: its identity (UUID, or host and
// index), its model, and its gauges (nil when the page has none).
type GPU struct {
	ID, Model           string
	Util, Memory, Power *Gauge
}

// maxLeftOut bounds the identities of the GPUs beyond MaxGPUs a run
// remembers to count them (a page that names new GPUs at every sample
// would grow it without end): beyond it, each is counted every time a
// sample names it.
const maxLeftOut = 4096

// gpuRun is a run's GPUs as its samples come (each sample's page folded
// in, so a run keeps values, never its pages): each GPU's values of each
// of its three gauges and their families, by identity, and the
// identities of those beyond MaxGPUs.
type gpuRun struct {
	byID map[string]*gpuSeries
	left map[string]bool
	more int // beyond maxLeftOut
}

// gpuSeries is one GPU's values over a run's samples.
type gpuSeries struct {
	gpuValue
	vals [3][]float64
	fam  [3]string
}

// foldGPUs adds a sample's GPUs to the run's, and drops them from the
// page. Called with r.mu held.
func (r *Run) foldGPUs(p *Page) {
	g := &r.gpu
	for k, families := range [3][]string{r.s.Names.GPUUtil, r.s.Names.GPUMemory, r.s.Names.GPUPower} {
		fam, gs, ok := p.gpuFamily(families)
		if !ok {
			continue
		}
		for id, v := range gs {
			s := g.byID[id]
			if s == nil {
				if len(g.byID) == MaxGPUs {
					switch {
					case g.left[id]:
					case len(g.left) < maxLeftOut:
						if g.left == nil {
							g.left = map[string]bool{}
						}
						g.left[id] = true
					default:
						g.more++
					}
					continue
				}
				if g.byID == nil {
					g.byID = map[string]*gpuSeries{}
				}
				s = &gpuSeries{gpuValue: v}
				g.byID[id] = s
			}
			s.vals[k], s.fam[k] = append(s.vals[k], v.v), fam
		}
	}
	p.gpus = nil
}

// gpus are each GPU's gauges over the samples taken during the run, in
// the order of their hosts and indexes; and the number of GPUs beyond
// MaxGPUs left out.
func (r *Run) gpus() ([]GPU, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byID := r.gpu.byID
	out := make([]GPU, 0, len(byID))
	for id, s := range byID {
		g := GPU{ID: id, Model: s.model}
		for k, to := range []**Gauge{&g.Util, &g.Memory, &g.Power} {
			if v := s.vals[k]; len(v) > 0 {
				v = slices.Sorted(slices.Values(v))
				*to = &Gauge{Name: [3]string{"util", "memory", "power"}[k], Family: s.fam[k], Samples: len(v), Median: median(v), Max: v[len(v)-1]}
			}
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b GPU) int {
		sa, sb := byID[a.ID], byID[b.ID]
		return cmp.Or(cmp.Compare(sa.host, sb.host), cmp.Compare(indexOf(sa.index), indexOf(sb.index)), cmp.Compare(a.ID, b.ID))
	})
	return out, len(r.gpu.left) + r.gpu.more
}

// indexOf is a GPU's index as a number (MaxInt when it is none).
func indexOf(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return math.MaxInt
}

// gpuFamily is the first of families the page has.
func (p Page) gpuFamily(families []string) (string, gpuFamily, bool) {
	for _, f := range families {
		if g, ok := p.gpus[f]; ok {
			return f, g, true
		}
	}
	return "", nil, false
}
