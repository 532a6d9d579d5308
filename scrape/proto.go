package scrape

import (
	"fmt"
	"math"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/encoding/protowire"
)

// readProto reads a delimited protobuf page (each message a MetricFamily
// of github.com/prometheus/client_model) at the wire, without decoding it
// into messages: a family latgate does not read is skipped, and a wanted
// family's series are folded one at a time, reading only the fields latgate
// uses (a gauge's or untyped value; a histogram's count, sum and classic
// buckets). Decoded whole, a 4 MiB page of a million empty gauges took
// 227 MB; read so, a page costs nothing beyond its bytes whatever its
// series.
// A message that claims more bytes than the page holds is refused (a
// decoder would make a buffer of the length it claims). A family given
// by many messages is one family of r (reading.family), so a page of
// many messages costs no more than one of a few.
func readProto(b []byte, r *reading) error {
	for i := 1; len(b) > 0; i++ {
		n, k := protowire.ConsumeVarint(b)
		if k < 0 || n > uint64(len(b)-k) {
			return fmt.Errorf("message %d claims more bytes than the page holds", i)
		}
		msg := b[k : k+int(n)]
		b = b[k+int(n):]
		name, typ, series, err := familyHead(msg)
		if err != nil {
			return fmt.Errorf("message %d: %v", i, err)
		}
		f := r.family(name, typ, series)
		if f == nil {
			continue
		}
		if err := foldSeries(msg, f); err != nil {
			return fmt.Errorf("message %d (%s): %v", i, name, err)
		}
	}
	return nil
}

// Field numbers of client_model's metrics.proto that latgate reads.
const (
	familyName, familyType, familyMetric   = 1, 3, 4
	metricGauge, metricUntyped, metricHist = 2, 5, 7
	metricCounter                          = 3
	metricLabel, labelName, labelValue     = 1, 1, 2
	valueField                             = 1 // Gauge.value, Counter.value, Untyped.value
	sampleCount, sampleSum, histBucket     = 1, 2, 3
	sampleCountFloat                       = 4
	bucketCount, bucketUpper               = 1, 2
	bucketCountFloat                       = 4
)

// fields calls field for each field of a message; field returns the bytes
// it read of the field's value, or skip for a field it does not read (a
// field whose wire type is not its own is skipped, as a decoder keeps it
// as an unknown field). A scalar given twice is its last value.
func fields(b []byte, field func(num protowire.Number, typ protowire.Type, v []byte) (int, error)) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		n, err := field(num, typ, b)
		if err != nil {
			return err
		}
		if n == skip {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	return nil
}

// skip is what a field function returns for a field it does not read.
const skip = math.MinInt

// familyHead is a family's name, type and number of series.
func familyHead(msg []byte) (name []byte, typ dto.MetricType, series int, err error) {
	err = fields(msg, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		switch {
		case num == familyName && wt == protowire.BytesType:
			s, n := protowire.ConsumeBytes(v)
			name = s
			return n, nil
		case num == familyType && wt == protowire.VarintType:
			t, n := protowire.ConsumeVarint(v)
			if _, known := dto.MetricType_name[int32(t)]; known {
				typ = dto.MetricType(int32(t)) // an unknown type is none, as a decoder reads it: a counter
			}
			return n, nil
		case num == familyMetric && wt == protowire.BytesType:
			series++
		}
		return skip, nil
	})
	return name, typ, series, err
}

// foldSeries folds each series of a family message into f, until f is
// left out.
func foldSeries(msg []byte, f *family) error {
	return fields(msg, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		if num != familyMetric || wt != protowire.BytesType || f.why != "" {
			return skip, nil
		}
		m, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return n, nil
		}
		return n, f.series(m)
	})
}

// series folds one Metric message into f.
func (f *family) series(m []byte) error {
	var gauge, counter, untyped float64
	s := rawHist{buckets: f.buckets[:0]}
	var count countField
	var gpu gpuLabels
	err := fields(m, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		if wt != protowire.BytesType || num != metricGauge && num != metricCounter && num != metricUntyped && num != metricHist && (num != metricLabel || f.gpu == nil) {
			return skip, nil
		}
		sub, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return n, nil
		}
		switch num {
		case metricLabel:
			return n, readLabel(sub, &gpu)
		case metricGauge:
			return n, readValue(sub, &gauge)
		case metricCounter:
			return n, readValue(sub, &counter)
		case metricUntyped:
			return n, readValue(sub, &untyped)
		}
		return n, readHistogram(sub, &s, &count) // given twice, the messages merge: buckets appended
	})
	f.buckets = s.buckets
	if err != nil {
		return err
	}
	switch {
	case f.counter && f.typ == dto.MetricType_COUNTER:
		f.value(counter, untyped)
	case f.gpu != nil:
		f.gpuSeries(gpu, gauge, untyped)
	case f.isGauge:
		f.value(gauge, untyped)
	default:
		s.count = count.value()
		f.histogram(s)
	}
	return nil
}

// readLabel reads a LabelPair into a GPU series' labels.
func readLabel(b []byte, l *gpuLabels) error {
	var name, value []byte
	err := fields(b, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		if wt != protowire.BytesType || num != labelName && num != labelValue {
			return skip, nil
		}
		s, n := protowire.ConsumeBytes(v)
		if num == labelName {
			name = s
		} else {
			value = s
		}
		return n, nil
	})
	l.set(string(name), string(value))
	return err
}

// readValue reads the value of a Gauge or an Untyped message into v.
func readValue(b []byte, v *float64) error {
	return fields(b, func(num protowire.Number, wt protowire.Type, b []byte) (int, error) {
		if num != valueField {
			return skip, nil
		}
		return double(wt, b, v)
	})
}

// double reads a double field into v.
func double(wt protowire.Type, b []byte, v *float64) (int, error) {
	if wt != protowire.Fixed64Type {
		return skip, nil
	}
	x, n := protowire.ConsumeFixed64(b)
	*v = math.Float64frombits(x)
	return n, nil
}

// countField is a count of a histogram or a bucket: its float form when the
// page gives it, else its integer.
type countField struct {
	n        uint64
	f        float64
	hasFloat bool
}

func (c countField) value() float64 {
	if c.hasFloat {
		return c.f
	}
	return float64(c.n)
}

// field reads the integer or the float form of a count.
func (c *countField) field(wt protowire.Type, v []byte, float bool) (int, error) {
	switch {
	case !float && wt == protowire.VarintType:
		x, n := protowire.ConsumeVarint(v)
		c.n = x
		return n, nil
	case float && wt == protowire.Fixed64Type:
		c.hasFloat = true
		return double(wt, v, &c.f)
	}
	return skip, nil
}

// readHistogram reads a Histogram message's count, sum and classic
// buckets into s: at most MaxBuckets+1 buckets are read, s.more counts
// the others.
func readHistogram(b []byte, s *rawHist, count *countField) error {
	return fields(b, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		switch {
		case num == sampleCount || num == sampleCountFloat:
			return count.field(wt, v, num == sampleCountFloat)
		case num == sampleSum:
			return double(wt, v, &s.sum)
		case num == histBucket && wt == protowire.BytesType:
			m, n := protowire.ConsumeBytes(v)
			if n < 0 {
				return n, nil
			}
			if len(s.buckets) > MaxBuckets {
				s.more++
				return n, nil
			}
			bk, err := readBucket(m)
			s.buckets = append(s.buckets, bk)
			return n, err
		}
		return skip, nil
	})
}

// readBucket reads one classic bucket: its upper bound and cumulative count.
func readBucket(b []byte) (bucket, error) {
	var bk bucket
	var count countField
	err := fields(b, func(num protowire.Number, wt protowire.Type, v []byte) (int, error) {
		switch {
		case num == bucketCount || num == bucketCountFloat:
			return count.field(wt, v, num == bucketCountFloat)
		case num == bucketUpper:
			return double(wt, v, &bk.upper)
		}
		return skip, nil
	})
	bk.count = count.value()
	return bk, err
}
