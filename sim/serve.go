package sim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Options are `latgate sim`'s settings: a named profile and overrides.
type Options struct {
	Profile  string
	TTFT     time.Duration // > 0: a fixed time to first token
	ITL      time.Duration // >= 0 with SetITL: a fixed inter-token gap
	SetITL   bool
	Tokens   int // > 0: output tokens
	Stamp    bool
	Buffered bool
	Speed    Speed

	// Tool calls: ToolSteps (>= 0 with SetToolSteps; 0 never calls),
	// and, when > 0, ToolCalls, ToolArgs, ToolChunk and ToolLatency.
	ToolSteps                      int
	SetToolSteps                   bool
	ToolCalls, ToolArgs, ToolChunk int
	ToolLatency                    time.Duration
	PrefixCache                    bool // turn the PrefixCache quirk on
	// PrefillPerToken > 0 sets Profile.PrefillPerToken; BlockCache > 0
	// the BlockCache quirk's block size.
	PrefillPerToken time.Duration
	BlockCache      int
	// Slots > 0 gives every profile a capacity of that many slots
	// (Capacity; the profile's prefill per request is kept).
	Slots int
	// Engine, when set, makes every profile an engine that reports its own
	// time (Profile.Engine).
	Engine *Engine
	// ColdStart and IdleAfter, when > 0, scale every profile to zero
	// (Profile.ColdStart, IdleAfter).
	ColdStart, IdleAfter time.Duration
}

// Build returns the profile the options describe.
func (o Options) Build() (Profile, error) {
	p, err := Named(o.Profile)
	if err != nil {
		return p, err
	}
	if o.TTFT > 0 {
		p.TTFT = Fixed(o.TTFT)
	}
	if o.SetITL {
		if o.ITL < 0 {
			return p, fmt.Errorf("itl %v: must not be negative", o.ITL)
		}
		p.ITL = Fixed(o.ITL)
	}
	if o.Tokens > 0 {
		p.Tokens = o.Tokens
	}
	p.Quirks.StampFirstOutput, p.Quirks.Buffered = o.Stamp, o.Buffered
	if err := o.tools(&p); err != nil {
		return p, err
	}
	if err := o.Speed.Validate(); err != nil {
		return p, err
	}
	p.Speed = o.Speed
	if err := o.prompt(&p); err != nil {
		return p, err
	}
	if o.Slots < 0 {
		return p, fmt.Errorf("slots %d: must not be negative", o.Slots)
	}
	if o.ColdStart < 0 || o.IdleAfter < 0 {
		return p, fmt.Errorf("cold start %v, idle after %v: must not be negative", o.ColdStart, o.IdleAfter)
	}
	if o.ColdStart > 0 {
		p.ColdStart, p.IdleAfter = o.ColdStart, o.IdleAfter
	}
	if o.Slots > 0 {
		p.Capacity.Slots = o.Slots
	}
	if o.Engine != nil {
		if err := o.Engine.Validate(); err != nil {
			return p, err
		}
		e := *o.Engine
		p.Engine = &e
	}
	return p, nil
}

// prompt applies the overrides of how the prompt counts to p: its
// prefill per token and its block cache.
func (o Options) prompt(p *Profile) error {
	switch {
	case o.PrefillPerToken < 0:
		return fmt.Errorf("prefill per token %v: must not be negative", o.PrefillPerToken)
	case o.BlockCache < 0:
		return fmt.Errorf("block cache %d: must not be negative (a block size in tokens; 0 keeps the profile's)", o.BlockCache)
	}
	if o.PrefillPerToken > 0 {
		p.PrefillPerToken = o.PrefillPerToken
	}
	if o.BlockCache > 0 {
		p.Quirks.BlockCache = o.BlockCache
	}
	return nil
}

// tools applies the tool-call overrides to p.
func (o Options) tools(p *Profile) error {
	if o.SetToolSteps {
		if o.ToolSteps < 0 {
			return fmt.Errorf("tool steps %d: must not be negative", o.ToolSteps)
		}
		p.ToolSteps = o.ToolSteps
	}
	for _, v := range []struct {
		name string
		val  int
		dst  *int
	}{{"tool calls", o.ToolCalls, &p.ToolCalls}, {"tool args", o.ToolArgs, &p.ToolArgs}, {"tool chunk", o.ToolChunk, &p.ToolChunk}} {
		if v.val < 0 {
			return fmt.Errorf("%s %d: must not be negative", v.name, v.val)
		}
		if v.val > 0 {
			*v.dst = v.val
		}
	}
	if o.ToolLatency < 0 {
		return fmt.Errorf("tool latency %v: must not be negative", o.ToolLatency)
	}
	if o.ToolLatency > 0 {
		p.ToolLatency = o.ToolLatency
	}
	p.Quirks.PrefixCache = p.Quirks.PrefixCache || o.PrefixCache
	return nil
}

// Server returns the simulator the options describe, seeded with seed: it
// serves the options' profile, and a request whose model names another
// built-in profile at that profile, the options' overrides (fixed delays,
// token count, speed, buffering, stamps) applied to each.
func (o Options) Server(seed uint64) (*Server, error) {
	p, err := o.Build()
	if err != nil {
		return nil, err
	}
	s := New(p, seed)
	for _, name := range ProfileNames() {
		if name == p.Name {
			continue
		}
		other := o
		other.Profile = name
		q, err := other.Build()
		if err != nil {
			return nil, err
		}
		s.SetModelProfile(name, q)
	}
	return s, nil
}

// ErrListen wraps a failure to listen on the address.
var ErrListen = errors.New("cannot listen")

// ListenAndServe serves h on addr until ctx is done; ready is called with
// the address once it listens. With a TLS configuration it serves HTTPS
// (and wss://), HTTP/1.1 only.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, tc *tls.Config, ready func(addr string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrListen, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ready(ln.Addr().String())
	if tc != nil {
		tc = tc.Clone()
		tc.NextProtos = []string{"http/1.1"}
		ln = tls.NewListener(ln, tc)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		_ = srv.Close()
	}
	return nil
}
