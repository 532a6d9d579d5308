package tinygguf

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

type reader struct {
	b   []byte
	off int
}

func (r *reader) u32() uint32 { v := binary.LittleEndian.Uint32(r.b[r.off:]); r.off += 4; return v }
func (r *reader) u64() uint64 { v := binary.LittleEndian.Uint64(r.b[r.off:]); r.off += 8; return v }
func (r *reader) str() string {
	n := int(r.u64())
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

func (r *reader) value(t uint32) any {
	switch t {
	case tUint32, tInt32:
		return r.u32()
	case tFloat32:
		return math.Float32frombits(r.u32())
	case tBool:
		r.off++
		return r.b[r.off-1] == 1
	case tString:
		return r.str()
	case tArray:
		et, n := r.u32(), r.u64()
		out := make([]any, n)
		for i := range out {
			out[i] = r.value(et)
		}
		return out
	}
	panic(t)
}

func TestWriteIsValidGGUF(t *testing.T) {
	t.Parallel()
	c := Config{Hidden: 64, Layers: 2, Heads: 4, FFN: 96, Context: 256, Seed: 3}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	r := &reader{b: buf.Bytes()}
	if string(r.b[:4]) != "GGUF" {
		t.Fatal("no GGUF magic")
	}
	r.off = 4
	if v := r.u32(); v != 3 {
		t.Fatalf("version %d", v)
	}
	nt, nkv := r.u64(), r.u64()
	meta := map[string]any{}
	for range nkv {
		k := r.str()
		meta[k] = r.value(r.u32())
	}
	if meta["general.architecture"] != "llama" || meta["tokenizer.ggml.model"] != "gpt2" || meta["llama.embedding_length"] != uint32(64) {
		t.Errorf("metadata: %v", meta)
	}
	if toks := meta["tokenizer.ggml.tokens"].([]any); len(toks) != Vocab || toks[' '] != "Ġ" || toks['A'] != "A" || toks[EOS] != "</s>" {
		t.Errorf("tokens: %d, space %q", len(toks), toks[' '])
	}
	var total uint64
	for range nt {
		r.str()
		nd := r.u32()
		n := uint64(1)
		for range nd {
			n *= r.u64()
		}
		if typ := r.u32(); typ != 0 {
			t.Errorf("type %d, want F32", typ)
		}
		if off := r.u64(); off != total || off%alignment != 0 {
			t.Errorf("offset %d, want %d aligned to %d", off, total, alignment)
		}
		total += pad(4 * n)
	}
	start := pad(uint64(r.off))
	if got := uint64(buf.Len()); got != start+total {
		t.Errorf("file is %d bytes, want %d", got, start+total)
	}
	if got, want := int(total/4), c.Params(); got < want {
		t.Errorf("%d weights stored, want at least %d", got, want)
	}
}

// TestBannedTokensNeverWin checks the shaping: whatever the residual stream
// holds in dimensions 1..n (here far larger than a real forward pass gives),
// dimension 0 is the anchor, and after the final norm and output layer every
// printable byte beats </s> and every unprintable byte.
func TestBannedTokensNeverWin(t *testing.T) {
	t.Parallel()
	c := Small
	ts := c.tensors()
	var out []float32
	for _, tn := range ts {
		switch tn.name {
		case "output.weight":
			out = tn.data
		case "token_embd.weight":
			for v := 0; v < Vocab; v++ {
				if tn.data[v*c.Hidden] != Anchor {
					t.Fatalf("token %d embedding dim 0 = %v", v, tn.data[v*c.Hidden])
				}
			}
		case "blk.0.attn_output.weight", "blk.0.ffn_down.weight":
			in := len(tn.data) / c.Hidden
			for i := 0; i < in; i++ {
				if tn.data[i] != 0 {
					t.Fatalf("%s writes to dimension 0", tn.name)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 200; trial++ {
		x := make([]float64, c.Hidden)
		x[0] = Anchor
		ss := x[0] * x[0]
		for i := 1; i < c.Hidden; i++ {
			x[i] = 3 * rng.NormFloat64()
			ss += x[i] * x[i]
		}
		rms := math.Sqrt(ss/float64(c.Hidden) + 1e-5)
		bestAllowed, bestBanned := math.Inf(-1), math.Inf(-1)
		for v := 0; v < Vocab; v++ {
			logit := 0.0
			for i := 0; i < c.Hidden; i++ {
				logit += float64(out[v*c.Hidden+i]) * x[i] / rms
			}
			if v < NumBytes && Printable(v) {
				bestAllowed = math.Max(bestAllowed, logit)
			} else {
				bestBanned = math.Max(bestBanned, logit)
			}
		}
		if bestBanned > bestAllowed-100 {
			t.Fatalf("trial %d: a banned token's logit %.1f is within 100 of the best printable %.1f", trial, bestBanned, bestAllowed)
		}
	}
}
