// Package tinygguf writes a small llama-architecture model as a GGUF v3
// file, with seeded random F32 weights and a byte-level GPT-2 vocabulary
// (256 byte tokens plus <s> and </s>), for end-to-end tests against a real
// inference engine without downloading a model.
//
// The weights are shaped so that generation never ends early and never
// emits an unprintable byte: hidden dimension 0 carries a constant (every
// token embedding has Anchor there, and no layer writes to it), so after the
// final RMS norm that dimension is always positive, and the output rows of
// </s> and of every byte outside printable ASCII have a large negative
// weight on it. Every request therefore streams exactly max_tokens
// printable tokens. The model is not meant to say anything sensible.
package tinygguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
)

// Config sizes the model.
type Config struct {
	Hidden  int // embedding length
	Layers  int
	Heads   int
	FFN     int // feed-forward length
	Context int // context length
	Seed    uint64
}

// Small is about 13M parameters: fast on two CPU cores.
var Small = Config{Hidden: 512, Layers: 4, Heads: 8, FFN: 1408, Context: 2048, Seed: 1}

// Vocabulary layout.
const (
	NumBytes = 256
	BOS      = 256
	EOS      = 257
	Vocab    = 258
	Anchor   = 10.0  // the constant in hidden dimension 0
	Ban      = -1000 // output weight on dimension 0 of a banned token
)

// Printable reports whether a byte token may be generated.
func Printable(b int) bool { return b >= 0x20 && b <= 0x7e }

// byteToUnicode is GPT-2's reversible byte → printable rune mapping.
func byteToUnicode() [256]rune {
	var m [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			m[b] = rune(b)
		} else {
			m[b] = rune(256 + n)
			n++
		}
	}
	return m
}

// Tokens returns the vocabulary strings in id order.
func Tokens() []string {
	m := byteToUnicode()
	t := make([]string, 0, Vocab)
	for b := 0; b < 256; b++ {
		t = append(t, string(m[b]))
	}
	return append(t, "<s>", "</s>")
}

// Params is the number of weights.
func (c Config) Params() int {
	per := 4*c.Hidden*c.Hidden + 3*c.Hidden*c.FFN + 2*c.Hidden
	return 2*Vocab*c.Hidden + c.Hidden + c.Layers*per
}

type tensor struct {
	name string
	dims []uint64 // ne0 (fastest) first
	data []float32
}

func (c Config) tensors() []tensor {
	rng := rand.New(rand.NewPCG(c.Seed, 0x1a7647e))
	random := func(n, fanIn int) []float32 {
		s := float32(0.5 / math.Sqrt(float64(fanIn)))
		d := make([]float32, n)
		for i := range d {
			d[i] = s * (2*rng.Float32() - 1)
		}
		return d
	}
	ones := func(n int) []float32 {
		d := make([]float32, n)
		for i := range d {
			d[i] = 1
		}
		return d
	}
	h, f := c.Hidden, c.FFN
	// Rows are ne1, each of ne0 values: element (i0, i1) is at i1*ne0 + i0.
	embd := random(Vocab*h, h)
	out := random(Vocab*h, h)
	for v := 0; v < Vocab; v++ {
		embd[v*h] = Anchor
		out[v*h] = 0
		if v == EOS || v == BOS || (v < NumBytes && !Printable(v)) {
			out[v*h] = Ban
		}
	}
	zeroRow0 := func(d []float32, in int) []float32 { // output dimension 0 gets nothing
		for i := 0; i < in; i++ {
			d[i] = 0
		}
		return d
	}
	ts := []tensor{
		{"token_embd.weight", []uint64{uint64(h), Vocab}, embd},
		{"output_norm.weight", []uint64{uint64(h)}, ones(h)},
		{"output.weight", []uint64{uint64(h), Vocab}, out},
	}
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("blk.%d.", l)
		ts = append(ts,
			tensor{p + "attn_norm.weight", []uint64{uint64(h)}, ones(h)},
			tensor{p + "attn_q.weight", []uint64{uint64(h), uint64(h)}, random(h*h, h)},
			tensor{p + "attn_k.weight", []uint64{uint64(h), uint64(h)}, random(h*h, h)},
			tensor{p + "attn_v.weight", []uint64{uint64(h), uint64(h)}, random(h*h, h)},
			tensor{p + "attn_output.weight", []uint64{uint64(h), uint64(h)}, zeroRow0(random(h*h, h), h)},
			tensor{p + "ffn_norm.weight", []uint64{uint64(h)}, ones(h)},
			tensor{p + "ffn_gate.weight", []uint64{uint64(h), uint64(f)}, random(h*f, h)},
			tensor{p + "ffn_up.weight", []uint64{uint64(h), uint64(f)}, random(h*f, h)},
			tensor{p + "ffn_down.weight", []uint64{uint64(f), uint64(h)}, zeroRow0(random(f*h, f), f)},
		)
	}
	return ts
}

// GGUF value types.
const (
	tUint32  = 4
	tInt32   = 5
	tFloat32 = 6
	tBool    = 7
	tString  = 8
	tArray   = 9
)

const alignment = 32

type writer struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (w *writer) bytes(b []byte) {
	if w.err != nil {
		return
	}
	var k int
	k, w.err = w.w.Write(b)
	w.n += int64(k)
}

func (w *writer) u32(v uint32) { w.bytes(binary.LittleEndian.AppendUint32(nil, v)) }
func (w *writer) u64(v uint64) { w.bytes(binary.LittleEndian.AppendUint64(nil, v)) }
func (w *writer) str(s string) { w.u64(uint64(len(s))); w.bytes([]byte(s)) }

type kv struct {
	key string
	put func(w *writer)
}

func kvU32(k string, v uint32) kv {
	return kv{k, func(w *writer) { w.u32(tUint32); w.u32(v) }}
}
func kvF32(k string, v float32) kv {
	return kv{k, func(w *writer) { w.u32(tFloat32); w.u32(math.Float32bits(v)) }}
}
func kvStr(k, v string) kv { return kv{k, func(w *writer) { w.u32(tString); w.str(v) }} }
func kvBool(k string, v bool) kv {
	return kv{k, func(w *writer) {
		w.u32(tBool)
		if v {
			w.bytes([]byte{1})
		} else {
			w.bytes([]byte{0})
		}
	}}
}

// metadata is the model's GGUF key-value pairs: llama's shape and the
// byte tokenizer.
func metadata(c Config) []kv {
	tokens := Tokens()
	types := make([]int32, Vocab)
	for i := range types {
		types[i] = 1 // normal
	}
	types[BOS], types[EOS] = 3, 3 // control
	meta := []kv{
		kvStr("general.architecture", "llama"),
		kvStr("general.name", fmt.Sprintf("latgate-tiny-%dx%d", c.Hidden, c.Layers)),
		kvU32("general.alignment", alignment),
		kvU32("general.file_type", 0), // all F32
		kvU32("llama.context_length", uint32(c.Context)),
		kvU32("llama.embedding_length", uint32(c.Hidden)),
		kvU32("llama.block_count", uint32(c.Layers)),
		kvU32("llama.feed_forward_length", uint32(c.FFN)),
		kvU32("llama.attention.head_count", uint32(c.Heads)),
		kvU32("llama.attention.head_count_kv", uint32(c.Heads)),
		kvU32("llama.rope.dimension_count", uint32(c.Hidden/c.Heads)),
		kvF32("llama.rope.freq_base", 10000),
		kvF32("llama.attention.layer_norm_rms_epsilon", 1e-5),
		kvU32("llama.vocab_size", Vocab),
		kvStr("tokenizer.ggml.model", "gpt2"),
		kvStr("tokenizer.ggml.pre", "default"),
		{"tokenizer.ggml.tokens", func(w *writer) {
			w.u32(tArray)
			w.u32(tString)
			w.u64(uint64(len(tokens)))
			for _, t := range tokens {
				w.str(t)
			}
		}},
		{"tokenizer.ggml.token_type", func(w *writer) {
			w.u32(tArray)
			w.u32(tInt32)
			w.u64(uint64(len(types)))
			for _, t := range types {
				w.u32(uint32(t))
			}
		}},
		{"tokenizer.ggml.merges", func(w *writer) { w.u32(tArray); w.u32(tString); w.u64(0) }},
		kvU32("tokenizer.ggml.bos_token_id", BOS),
		kvU32("tokenizer.ggml.eos_token_id", EOS),
		kvBool("tokenizer.ggml.add_bos_token", true),
		kvBool("tokenizer.ggml.add_eos_token", false),
	}
	return meta
}

// Write writes the model as GGUF v3.
func Write(out io.Writer, c Config) error {
	if c.Hidden%c.Heads != 0 {
		return fmt.Errorf("hidden size %d is not a multiple of %d heads", c.Hidden, c.Heads)
	}
	meta := metadata(c)
	ts := c.tensors()
	w := &writer{w: bufio.NewWriterSize(out, 1<<20)}
	w.bytes([]byte("GGUF"))
	w.u32(3)
	w.u64(uint64(len(ts)))
	w.u64(uint64(len(meta)))
	for _, m := range meta {
		w.str(m.key)
		m.put(w)
	}
	var offset uint64
	for _, t := range ts {
		w.str(t.name)
		w.u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.u64(d)
		}
		w.u32(0) // GGML_TYPE_F32
		w.u64(offset)
		offset += pad(uint64(4 * len(t.data)))
	}
	w.bytes(make([]byte, pad(uint64(w.n))-uint64(w.n)))
	for _, t := range ts {
		buf := make([]byte, 4*len(t.data))
		for i, v := range t.data {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
		}
		w.bytes(buf)
		w.bytes(make([]byte, pad(uint64(len(buf)))-uint64(len(buf))))
	}
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

func pad(n uint64) uint64 { return (n + alignment - 1) / alignment * alignment }
